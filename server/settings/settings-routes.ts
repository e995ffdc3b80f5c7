// The back office's «Настройки» (docs/contract.md §7, docs/decisions/039-settings.md), owner only:
//   GET  /api/admin/settings                    the settings in effect, secrets as set/unset, the audit
//   PUT  /api/admin/settings                    { key: value, … }: checked whole, all or nothing
//   POST /api/admin/settings/check/{group}      a real test: e-mail, telegram, webhook, public-url, feed, metrika
//   POST /api/admin/settings/telegram-chats     the chats that wrote to the bot (getUpdates)
//   POST /api/admin/settings/webhook-secret     a new signing secret, answered this once
//   POST /api/admin/settings/exchange-password  a new 1C password, answered this once (its hash is kept)
// No answer carries a stored secret; the audit log names the key, never the value.
import type { FastifyInstance } from 'fastify'
import type { Config } from '../config/config'
import { createAdminCheck, requireAdmin } from '../admin/access'
import { auditActor } from '../admin/audit-actor'
import { HttpError } from '../http/http-error'
import { routeOf } from '../http/route-path'
import { ENV_OF, smtpServerOf, type EffectiveSettings } from './effective-settings'
import { readSettingsAudit, readStoredSettings } from './settings-store'
import { settingChanges } from './setting-rules'
import { generatePassword, generateWebhookSecret, hashPassword } from './secret-hash'
import {
  CHECK_TIMEOUT_MS,
  checkEmail,
  checkPublicUrl,
  checkTelegram,
  checkWebhook,
  telegramChats,
} from './settings-checks'
import { checkFeed, checkMetrika } from './site-checks'
import { configuredChannels } from '../config/delivery-config'
import {
  PLAIN_KEYS,
  SECRET_KEYS,
  SETTING_CHECKS,
  type CheckResult,
  type PlainKey,
  type SecretKey,
  type SettingCheck,
  type SettingKey,
  type SettingsView,
} from '../../src/admin/admin-settings'
import { ADMIN_API_PATHS, PATHS } from '../../src/site/paths'
import { ONE_C_FIELD_KEYS, ONE_C_FIELDS } from '../../src/catalogue/one-c-fields'

const AUDIT_SHOWN = 30
/** The most a check may take as a whole (each of its steps has CHECK_TIMEOUT_MS) */
const CHECK_LIMIT_MS = CHECK_TIMEOUT_MS + 2000

/** Why 1C (on another computer) could not reach this address, or null. */
export function publicUrlWarning(settings: EffectiveSettings): string | null {
  if (!settings.publicUrlSet)
    return 'Адрес сайта не задан: 1С не сможет подключиться. Укажите его в группе «Адрес сайта».'
  const host = new URL(settings.publicUrl).hostname
  if (
    /^(localhost|127\.|0\.0\.0\.0|\[::1\]|10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.)/.test(host) ||
    host.endsWith('.local')
  )
    return `Адрес сайта локальный (${host}): 1С с другого компьютера до него не достучится.`
  return null
}

export async function settingsRoutes(app: FastifyInstance, { config }: { config: Config }) {
  const access = createAdminCheck(config.adminToken, app.adminSession)
  app.addHook('onRequest', async (request) => requireAdmin(await access(request)))
  const stored = () => readStoredSettings(app.db)

  async function view(): Promise<SettingsView> {
    const settings = app.settings.current()
    const own = (await stored()).values
    const fromEnv: Partial<Record<SettingKey, string>> = {}
    for (const key of [...PLAIN_KEYS, ...SECRET_KEYS]) {
      if (config.settingsFromEnv.has(ENV_OF[key])) fromEnv[key] = ENV_OF[key]
    }
    const envSmtp =
      fromEnv['email.server'] && settings.delivery.email ? smtpServerOf(settings.delivery.email.smtpUrl) : null
    const envValue: Partial<Record<PlainKey, string>> = {
      'email.server': envSmtp?.server,
      'email.login': envSmtp?.login,
      'email.from': settings.delivery.email?.from,
      'email.to': settings.delivery.email?.to.join(', '),
      'telegram.chatId': settings.delivery.telegram?.chatIds.join(', '),
      'webhook.url': settings.delivery.webhook?.url,
      'site.publicUrl': settings.publicUrl,
      'feed.enabled': String(settings.feeds.yandexFeed),
      'feed.shopName': settings.feeds.shopName ?? '',
      'feed.company': settings.feeds.company ?? '',
      'feed.vendor': settings.feeds.defaultVendor ?? '',
      'metrika.id': settings.metrikaId === null ? '' : String(settings.metrikaId),
      'exchange.login': settings.exchange1c?.login,
    }
    const values = {} as Record<PlainKey, string>
    for (const key of PLAIN_KEYS) values[key] = (fromEnv[key] ? envValue[key] : own.get(key)) ?? ''
    // A switch that is on by default reads as it is in effect, from whichever side
    for (const field of ONE_C_FIELDS)
      values[ONE_C_FIELD_KEYS[field]] = String(settings.exchangeOverwrite.includes(field))
    const secrets = {} as Record<SecretKey, boolean>
    for (const key of SECRET_KEYS) secrets[key] = fromEnv[key] !== undefined || own.has(key)
    return {
      values,
      secrets,
      fromEnv,
      publicUrl: settings.publicUrl,
      publicUrlWarning: publicUrlWarning(settings),
      exchangeUrl: `${settings.publicUrl}${PATHS.exchange}`,
      feedUrl: settings.feeds.yandexFeed ? `${settings.publicUrl}${PATHS.yandexFeed}` : null,
      channels: configuredChannels(settings.delivery),
      audit: await readSettingsAudit(app.db, AUDIT_SHOWN),
    }
  }

  app.get(routeOf(app, ADMIN_API_PATHS.settings), async () => ({ data: await view() }))

  app.put(routeOf(app, ADMIN_API_PATHS.settings), async (request) => {
    const changes = settingChanges(config, request.body, (await stored()).values)
    await app.settings.write(changes, auditActor(request), new Date())
    return { data: await view() }
  })

  app.post(routeOf(app, ADMIN_API_PATHS.settingsWebhookSecret), async (request) => {
    if (config.settingsFromEnv.has('LEAD_WEBHOOK_SECRET'))
      throw new HttpError(409, 'Секрет вебхука задан на сервере (LEAD_WEBHOOK_SECRET)', 'from_env')
    const secret = generateWebhookSecret()
    await app.settings.write(
      [{ key: 'webhook.secret', value: secret, action: 'generated' }],
      auditActor(request),
      new Date(),
    )
    return { data: { secret } }
  })

  app.post(routeOf(app, ADMIN_API_PATHS.settingsExchangePassword), async (request) => {
    if (config.settingsFromEnv.has('EXCHANGE_1C_PASSWORD'))
      throw new HttpError(
        409,
        'Логин и пароль обмена заданы на сервере (EXCHANGE_1C_LOGIN, EXCHANGE_1C_PASSWORD)',
        'from_env',
      )
    const password = generatePassword()
    const changes = [{ key: 'exchange.password', value: await hashPassword(password), action: 'generated' as const }]
    // 1C needs a login too: a password made before one was typed comes with the default.
    if (!(await stored()).values.has('exchange.login'))
      changes.push({ key: 'exchange.login', value: 'obmen1c', action: 'generated' })
    await app.settings.write(changes, auditActor(request), new Date())
    return { data: { password } }
  })

  app.post(routeOf(app, ADMIN_API_PATHS.settingsTelegramChats), async () => {
    const settings = app.settings.current()
    const token = config.settingsFromEnv.has('TELEGRAM_BOT_TOKEN')
      ? (settings.delivery.telegram?.botToken ?? null)
      : ((await stored()).values.get('telegram.token') ?? null)
    const chats = await telegramChats(settings, token)
    if (!Array.isArray(chats)) throw new HttpError(502, chats.message, 'telegram_failed')
    return { data: chats }
  })

  // Each check is bounded by CHECK_TIMEOUT_MS (settings-checks.ts); the site's own pages are asked
  // through inject(), never over the network.
  app.post(routeOf(app, ADMIN_API_PATHS.settingsCheck(':check')), async (request) => {
    const check = (request.params as { check: string }).check as SettingCheck
    if (!SETTING_CHECKS.includes(check)) throw new HttpError(404, 'Нет такой проверки', 'not_found')
    const settings = app.settings.current()
    const run: Record<SettingCheck, () => Promise<CheckResult>> = {
      email: () => checkEmail(settings),
      telegram: () => checkTelegram(settings),
      webhook: () => checkWebhook(settings),
      'public-url': async () => checkPublicUrl(settings, (await app.inject({ method: 'GET', url: PATHS.robots })).body),
      feed: () => checkFeed(app, settings),
      metrika: () => checkMetrika(app, settings),
    }
    // nodemailer's limits are per phase: the whole check is cut off too, whatever hangs.
    let timer: NodeJS.Timeout | undefined
    const late = new Promise<CheckResult>((resolve) => {
      timer = setTimeout(
        () => resolve({ ok: false, message: `Проверка не уложилась в ${CHECK_LIMIT_MS / 1000} с: сервер не отвечает` }),
        CHECK_LIMIT_MS,
      )
    })
    try {
      return { data: await Promise.race([run[check](), late]) }
    } finally {
      clearTimeout(timer)
    }
  })
}
