// /1c/exchange: the «Обмен с сайтом» protocol of 1C (CommerceML 2.x; docs/decisions/032-1c-exchange.md).
// One URL for both directions, routed on the query's `type` (catalog, sale) and `mode`; any other
// parameter is ignored. Every answer is plain text whose first line is `success`, `progress` or
// `failure` (with a Russian reason on the next line). Off until EXCHANGE_1C_LOGIN and
// EXCHANGE_1C_PASSWORD are set, and while the owner's switch in «Обмен с 1С» is off.
//
// checkauth takes HTTP Basic credentials through the back office's guard of failed credentials (the
// same limit as every other way in) and answers a cookie; every later call needs it. The session
// and the files live in the database (exchange-sessions.ts, exchange-files.ts), so any process or
// host takes any call.
import { createHash, timingSafeEqual } from 'node:crypto'
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { ExchangeCredentials } from '../../settings/effective-settings'
import { createErrorHandler } from '../../http/errors'
import { clampStatus, HttpError } from '../../http/http-error'
import { PATHS } from '../../../src/site/paths'
import { CmlError } from './commerceml'
import { EXCHANGE_LIMITS, appendFile, checkedName, dropFiles, listFiles } from './exchange-files'
import { COOKIE_NAME, findSession, openSession, resetSession, type ExchangeSession } from './exchange-sessions'
import { importStep } from './exchange-import'
import { withTightHeap } from '../import-heap'
import { endRun } from './exchange-runs'
import { readSettings } from './exchange-settings'

/** The orders' side (`type=sale`), given by the leads (server/leads/exchange/one-c-orders.ts). */
export interface SaleSide {
  /** The leads 1C has not confirmed, as a CommerceML document; the same until `success` */
  query(sessionId: string): Promise<string>
  /** 1C took what the session's last `query` gave */
  confirm(sessionId: string): Promise<void>
  /** 1C sends its orders' changes back (`mode=file`): the leads take their status */
  changes(file: string, bytes: Buffer): Promise<void>
}

interface ExchangeOptions {
  /** The credentials in effect at each request (EXCHANGE_1C_*, else the back office's «Настройки») */
  readonly exchange: () => ExchangeCredentials | null
  readonly sale: SaleSide
  readonly now?: () => Date
  /** Milliseconds one `import` call works before it answers `progress` (tests lower it) */
  readonly stepBudgetMs?: number
}

const sha256 = (text: string) => createHash('sha256').update(text).digest()
const sameSecret = (given: string, expected: string) => timingSafeEqual(sha256(given), sha256(expected))

function answer(reply: FastifyReply, status: number, lines: readonly string[]) {
  return reply
    .code(status)
    .header('cache-control', 'no-store')
    .type('text/plain; charset=utf-8')
    .send(`${lines.join('\n')}\n`)
}

const failure = (reply: FastifyReply, status: number, message: string) => answer(reply, status, ['failure', message])

const TOO_BIG = 'Часть файла больше file_limit'

/** The reason 1C reads for what the framework or the code threw: never a detail of a 5xx. */
function exchangeError(error: FastifyError): HttpError {
  const status = clampStatus(error)
  if (status === 413) return new HttpError(413, TOO_BIG, 'payload_too_large')
  if (status < 500) return new HttpError(status, 'Неверный запрос обмена', 'bad_request')
  return new HttpError(500, 'Ошибка сервера: обмен не выполнен, повторите позже', 'internal')
}

function basicCredentials(request: FastifyRequest): { login: string; password: string } | null {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(request.headers.authorization ?? '')
  if (!match) return null
  const decoded = Buffer.from(match[1], 'base64').toString('utf8')
  const colon = decoded.indexOf(':')
  return colon === -1 ? null : { login: decoded.slice(0, colon), password: decoded.slice(colon + 1) }
}

function cookieOf(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie ?? ''
  for (const part of header.split(';')) {
    const [name, ...value] = part.trim().split('=')
    if (name === COOKIE_NAME) return value.join('=')
  }
  return undefined
}

function queryOf(request: FastifyRequest): { type: string; mode: string; filename?: string } {
  const query = (request.query ?? {}) as Record<string, unknown>
  const text = (v: unknown) => (typeof v === 'string' ? v : Array.isArray(v) && typeof v[0] === 'string' ? v[0] : '')
  return { type: text(query.type), mode: text(query.mode), filename: text(query.filename) || undefined }
}

export async function exchangeRoutes(app: FastifyInstance, options: ExchangeOptions) {
  const now = options.now ?? (() => new Date())
  const budgetMs = options.stepBudgetMs ?? 10_000
  // The body of `mode=file` is the file's raw bytes, whatever 1C names its type.
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: EXCHANGE_LIMITS.bodyLimit }, (_request, body, done) =>
    done(null, body),
  )
  // The shared handler (logs, Retry-After) in the protocol's answer format: `failure` and a reason.
  app.setErrorHandler(
    createErrorHandler({
      scope: '1C exchange',
      translate: exchangeError,
      send: (_request, reply, error) => failure(reply, error.statusCode, error.message),
    }),
  )

  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const { type, mode, filename } = queryOf(request)
    const credentials = options.exchange()
    if (credentials === null) {
      return failure(
        reply,
        404,
        'Обмен с 1С выключен: создайте логин и пароль в «Настройках» сайта или задайте EXCHANGE_1C_LOGIN и EXCHANGE_1C_PASSWORD',
      )
    }
    if (type !== 'catalog' && type !== 'sale')
      return failure(reply, 400, 'Неизвестный тип обмена: ожидается catalog или sale')
    if (!(await readSettings(app.db)).enabled) return failure(reply, 403, 'Обмен с 1С выключен в админке сайта')

    if (mode === 'checkauth') {
      const attempt = await app.adminSession.guard.attempt(request)
      const given = basicCredentials(request)
      // Both compared whatever the login, so a wrong login takes as long as a wrong password.
      const passwordOk = await credentials.verify(given?.password ?? '')
      const ok = given !== null && sameSecret(given.login, credentials.login) && passwordOk
      if (!ok) return failure(reply, 401, 'Неверный логин или пароль обмена')
      await attempt.matched()
      const cookie = await openSession(app.db, now())
      return answer(reply, 200, ['success', COOKIE_NAME, cookie])
    }

    await app.adminSession.guard.check(request)
    const session = await findSession(app.db, cookieOf(request), now())
    if (!session) return failure(reply, 401, 'Сеанс обмена не найден или истёк: начните обмен заново (checkauth)')

    switch (`${type}:${mode}`) {
      case 'catalog:init':
      case 'sale:init':
        await resetSession(app.db, session.id, now())
        // Orders come back as one plain XML file; the catalogue's files may come zipped.
        return answer(reply, 200, [type === 'sale' ? 'zip=no' : 'zip=yes', `file_limit=${EXCHANGE_LIMITS.fileLimit}`])
      case 'catalog:file': {
        const body = request.body
        if (!Buffer.isBuffer(body) || body.length === 0)
          return failure(reply, 400, 'Пустой файл: ожидается содержимое в теле запроса')
        // The route's body limit leaves room above file_limit; a part past what init promised is refused too.
        if (body.length > EXCHANGE_LIMITS.fileLimit) return failure(reply, 413, TOO_BIG)
        // Tight from the first part on: an archive's bytes are the heap's first growth of an exchange.
        await withTightHeap(() => appendFile(app.db, session.id, checkedName(filename), body))
        return answer(reply, 200, ['success'])
      }
      case 'catalog:import': {
        const result = await withTightHeap(() =>
          importStep(
            {
              db: app.db,
              door: app.writeDoor,
              storage: app.mediaStorage,
              log: request.log,
              now,
              budgetMs,
              overwrite: app.settings.current().exchangeOverwrite,
            },
            session,
            filename ?? '',
          ),
        )
        // The session's last file in: the run ends, failed when 1C sent items the site refused.
        const refused = result.status === 'success' ? await finishWhenAllDone(session) : null
        if (refused !== null) {
          await dropFiles(app.db, session.id)
          return failure(reply, 422, refused)
        }
        return answer(reply, result.status === 'failure' ? 422 : 200, [result.status, result.message])
      }
      case 'catalog:complete':
      case 'catalog:deactivate':
        // The exchange is over: its run ends and its files go (the session stays until it expires).
        if (session.runId !== null) await endRun(app.db, session.runId, now())
        await dropFiles(app.db, session.id)
        return answer(reply, 200, ['success'])
      case 'sale:query':
        return reply
          .code(200)
          .header('cache-control', 'no-store')
          .type('application/xml; charset=utf-8')
          .send(await options.sale.query(session.id))
      case 'sale:success':
        await options.sale.confirm(session.id)
        return answer(reply, 200, ['success'])
      case 'sale:file': {
        // The orders 1C changed: their leads show 1C's status beside the owner's own (issue 44).
        const body = request.body
        if (!Buffer.isBuffer(body) || body.length === 0)
          return failure(reply, 400, 'Пустой файл: ожидается содержимое в теле запроса')
        if (body.length > EXCHANGE_LIMITS.fileLimit) return failure(reply, 413, 'Файл больше file_limit')
        try {
          await options.sale.changes(checkedName(filename ?? 'orders.xml'), body)
        } catch (error) {
          if (error instanceof CmlError) return failure(reply, 422, error.message)
          throw error
        }
        return answer(reply, 200, ['success'])
      }
      case 'sale:complete':
        return answer(reply, 200, ['success'])
    }
    return failure(reply, 400, `Неизвестный режим обмена: ${mode.slice(0, 40) || 'не указан'}`)
  }

  /**
   * The run ends once every XML file of its session is imported (1C does not always send `complete`).
   * Returns why it failed (items 1C sent that the site refused), or null.
   */
  async function finishWhenAllDone(session: ExchangeSession): Promise<string | null> {
    const row = await app.db
      .selectFrom('exchangeSession')
      .select(['state', 'runId'])
      .where('id', '=', session.id)
      .executeTakeFirst()
    if (!row?.runId || !row.state) return null
    const state = JSON.parse(row.state) as { files: Record<string, { step: string }> }
    const files = await listFiles(app.db, session.id)
    const pending = files.some((f) => f.name.toLowerCase().endsWith('.xml') && state.files[f.name]?.step !== 'done')
    return pending ? null : endRun(app.db, row.runId, now())
  }

  app.route({ method: ['GET', 'POST'], url: PATHS.exchange, bodyLimit: EXCHANGE_LIMITS.bodyLimit, handler })
}
