// The log of cookie choices (docs/decisions/027-personal-data.md), as the lead's consent is kept:
// when, the hashed address, the user agent, the version of the notice's text, the choice.
//   POST /api/cookie-choice   { analytics: boolean, version: string }   204
// The version must be one the site shows now (a site's notice and cookie page): a made-up token is
// a 400 and is not stored, so the log names only texts a visitor could have been shown.
// Small (1 KB), rate-limited per address in the shared counter, bounded fields; the notice's
// script sends it and ignores the answer.
import type { FastifyInstance } from 'fastify'
import type { Db } from '../data/db'
import { countRequest } from '../http/rate-limit-store'
import { HttpError } from '../http/http-error'
import { oneLine } from '../../src/validation/plain-text'
import { hashAddress } from './privacy-settings'
import { routeOf } from '../http/route-path'
import { PATHS } from '../../src/site/paths'

const BODY_LIMIT = 1024
/** Choices per address per minute: a person clicks a few times, a script many. */
const PER_MINUTE = 20
const USER_AGENT_WIDTH = 400

export interface CookieChoice {
  readonly createdAt: string
  readonly analytics: boolean
  readonly textVersion: string
  readonly userAgent: string | null
}

export async function logCookieChoice(
  db: Db,
  choice: { ip: string; userAgent: string | undefined; analytics: boolean; version: string; at: Date },
): Promise<void> {
  await db
    .insertInto('cookieChoice')
    .values({
      createdAt: choice.at.toISOString(),
      ipHash: await hashAddress(db, choice.ip),
      userAgent: choice.userAgent ? oneLine(choice.userAgent).slice(0, USER_AGENT_WIDTH) : null,
      textVersion: choice.version,
      analytics: choice.analytics ? 1 : 0,
    })
    .execute()
}

/** The body: exactly `analytics` (a boolean) and `version` (a short token); 400 otherwise. */
function choiceOf(body: unknown): { analytics: boolean; version: string } {
  const keys = typeof body === 'object' && body !== null && !Array.isArray(body) ? Object.keys(body) : null
  const { analytics, version } = (body ?? {}) as { analytics?: unknown; version?: unknown }
  if (
    keys === null ||
    keys.length !== 2 ||
    typeof analytics !== 'boolean' ||
    typeof version !== 'string' ||
    !/^[A-Za-z0-9:._-]{1,64}$/.test(version)
  ) {
    throw new HttpError(400, 'Ожидается выбор: analytics (да или нет) и версия текста', 'validation_failed')
  }
  return { analytics, version }
}

export interface CookieChoiceOptions {
  readonly now: () => Date
  /** The notice's current version on every site (ContentService.cookieVersions) */
  readonly versions: () => Promise<readonly string[]>
}

export async function cookieChoiceRoutes(app: FastifyInstance, { now, versions }: CookieChoiceOptions) {
  app.post(routeOf(app, PATHS.cookieChoice), { bodyLimit: BODY_LIMIT }, async (request, reply) => {
    const body = choiceOf(request.body)
    if (!(await versions()).includes(body.version)) {
      throw new HttpError(
        400,
        'Эта версия текста о cookie сайту неизвестна: обновите страницу и выберите снова',
        'validation_failed',
      )
    }
    const { current } = await countRequest(app.db, `cookie-choice:${request.ip}`, 60_000)
    if (current > PER_MINUTE) {
      throw new HttpError(429, 'Слишком много запросов. Попробуйте через минуту.', 'rate_limited', undefined, 60)
    }
    await logCookieChoice(app.db, {
      ip: request.ip,
      userAgent: request.headers['user-agent'],
      analytics: body.analytics,
      version: body.version,
      at: now(),
    })
    return reply.code(204).header('cache-control', 'no-store').send()
  })
}
