// The back office's «Обмен с 1С» (docs/decisions/032-1c-exchange.md), owner only:
//   GET /api/admin/exchange   the address and login to paste into 1C, whether the exchange is
//                             configured, the owner's settings, the price types 1C sent, the last runs
//   PUT /api/admin/exchange   the settings: the switch, the price types, what «нет на складе» shows
import type { FastifyInstance } from 'fastify'
import type { Config } from '../../config/config'
import type { Db } from '../../data/db'
import { createAdminCheck, requireAdmin } from '../../admin/access'
import { HttpError } from '../../http/http-error'
import { routeOf } from '../../http/route-path'
import { ADMIN_API_PATHS, PATHS } from '../../../src/site/paths'
import { ABANDONED } from './exchange-sessions'
import { knownPriceTypes, readSettings, writeSettings, type ExchangeSettings } from './exchange-settings'
import type { RunReport } from './exchange-inputs'

/** The newest runs, each with the expiry of the session still holding it (none: its session is gone). */
function runsWithSession(db: Db, limit: number) {
  return db
    .selectFrom('exchangeRun')
    .leftJoin('exchangeSession', 'exchangeSession.runId', 'exchangeRun.id')
    .selectAll('exchangeRun')
    .select('exchangeSession.expiresAt')
    .orderBy('exchangeRun.id', 'desc')
    .limit(limit)
    .execute()
}

/**
 * A run as the owner sees it: one still «running» whose session expired or went (1C stopped calling
 * and has not come back to have it swept) is shown failed, as the next checkauth will mark it.
 */
function shown<T extends { status: string; message: string | null; expiresAt: string | null }>(run: T, now: Date) {
  const { expiresAt, ...rest } = run
  const abandoned = run.status === 'running' && (expiresAt === null || expiresAt < now.toISOString())
  return abandoned ? { ...rest, status: 'failure' as const, message: ABANDONED } : rest
}

/** The last exchange for /readyz's owner view: a failed one is what the owner must notice. */
export async function lastExchange(db: Db, now = new Date()): Promise<{ exchange1c: Record<string, unknown> | null }> {
  const [run] = await runsWithSession(db, 1)
  if (!run) return { exchange1c: null }
  const { status, startedAt, finishedAt, message } = shown(run, now)
  return { exchange1c: { status, startedAt, finishedAt, message } }
}

/** Runs the back office lists. */
const RUNS_SHOWN = 20

function settingsFrom(body: unknown): ExchangeSettings {
  const input = (body ?? {}) as Record<string, unknown>
  const errors: Record<string, string> = {}
  const text = (name: string) => {
    const value = input[name] ?? ''
    // eslint-disable-next-line no-control-regex
    if (typeof value !== 'string' || value.length > 200 || /[\u0000-\u001f\u007f]/.test(value)) {
      errors[name] = 'Ожидается строка до 200 символов'
      return ''
    }
    return value.trim()
  }
  if (typeof input.enabled !== 'boolean') errors.enabled = 'Ожидается «да» или «нет»'
  const zeroStock = input.zeroStock
  if (zeroStock !== 'out_of_stock' && zeroStock !== 'on_order')
    errors.zeroStock = 'Выберите «Нет в наличии» или «Под заказ»'
  const settings: ExchangeSettings = {
    enabled: input.enabled === true,
    priceType: text('priceType'),
    oldPriceType: text('oldPriceType'),
    zeroStock: zeroStock === 'on_order' ? 'on_order' : 'out_of_stock',
  }
  if (Object.keys(errors).length > 0)
    throw new HttpError(400, 'Проверьте настройки обмена', 'validation_failed', errors)
  return settings
}

export async function exchangeAdminRoutes(app: FastifyInstance, { config }: { config: Config }) {
  const access = createAdminCheck(config.adminToken, app.adminSession)

  const view = async () => {
    const runs = (await runsWithSession(app.db, RUNS_SHOWN)).map((run) => shown(run, new Date()))
    // The credentials in effect: EXCHANGE_1C_*, else the back office's «Настройки»
    const { publicUrl, exchange1c } = app.settings.current()
    return {
      url: `${publicUrl}${PATHS.exchange}`,
      configured: exchange1c !== null,
      login: exchange1c?.login ?? null,
      settings: await readSettings(app.db),
      priceTypes: await knownPriceTypes(app.db),
      runs: runs.map((run) => ({
        id: run.id,
        startedAt: run.startedAt,
        finishedAt: run.finishedAt,
        status: run.status,
        message: run.message,
        ...(JSON.parse(run.report) as RunReport),
      })),
    }
  }

  app.get(routeOf(app, ADMIN_API_PATHS.exchange), async (request) => {
    requireAdmin(await access(request))
    return { data: await view() }
  })

  app.put(routeOf(app, ADMIN_API_PATHS.exchange), async (request) => {
    requireAdmin(await access(request))
    await writeSettings(app.db, settingsFrom(request.body))
    return { data: await view() }
  })
}
