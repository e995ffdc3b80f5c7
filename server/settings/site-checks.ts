// The checks of the settings the site's own answers show: the Yandex feed (built, with its offers
// counted) and the Metrika counter (on the home page). Asked through inject(), never the network.
import type { FastifyInstance } from 'fastify'
import type { EffectiveSettings } from './effective-settings'
import type { CheckResult } from '../../src/admin/admin-settings'
import { PATHS } from '../../src/site/paths'

export async function checkFeed(app: FastifyInstance, settings: EffectiveSettings): Promise<CheckResult> {
  if (!settings.feeds.yandexFeed) return { ok: false, message: 'Фид выключен' }
  const res = await app.inject({ method: 'GET', url: PATHS.yandexFeed })
  if (res.statusCode !== 200) return { ok: false, message: `Фид не собрался: ответ ${res.statusCode}` }
  const offers = res.body.match(/<offer[\s>]/g)?.length ?? 0
  return { ok: true, message: `Фид собран: предложений ${offers}, адрес ${settings.publicUrl}${PATHS.yandexFeed}` }
}

export async function checkMetrika(app: FastifyInstance, settings: EffectiveSettings): Promise<CheckResult> {
  if (settings.metrikaId === null) return { ok: false, message: 'Счётчик не задан' }
  const res = await app.inject({ method: 'GET', url: '/' })
  if (res.statusCode !== 200 || !res.body.includes(String(settings.metrikaId)))
    return { ok: false, message: `На главной странице счётчика ${settings.metrikaId} нет (ответ ${res.statusCode})` }
  return {
    ok: true,
    message: `Счётчик ${settings.metrikaId} есть на главной странице; он загружается после согласия посетителя на cookie`,
  }
}
