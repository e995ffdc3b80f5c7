// What a visitor is told while the database is away and the page cache has no copy of the page:
// a short Russian page, 503 with Retry-After, never kept by any cache. Also the answer of every
// other route that needs the database and finds it unavailable (docs/decisions/013-lead-journal.md).
import type { FastifyReply } from 'fastify'
import type { Config } from '../config/config'
import { contentSecurityPolicy } from './csp'

export const RETRY_AFTER_SECONDS = 30

/** The page's one style, allowed by its hash (the policy's style-src is 'self'; a style attribute would not be). */
const UNAVAILABLE_STYLE = 'body{font-family:system-ui,sans-serif;text-align:center;padding:48px 16px}'

const UNAVAILABLE_PAGE = `<!doctype html><html lang="ru"><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>Сайт временно недоступен</title><style>${UNAVAILABLE_STYLE}</style><body><h1>Сайт временно недоступен</h1><p>Мы уже чиним. Обновите страницу через минуту.</p></body></html>\n`

/** Answers 503 with the outage page and Retry-After. */
export function sendOutagePage(reply: FastifyReply, config: Pick<Config, 'mediaUrl' | 'metrikaId'>): FastifyReply {
  return reply
    .code(503)
    .headers({
      'retry-after': String(RETRY_AFTER_SECONDS),
      'cache-control': 'no-store',
      'content-security-policy': contentSecurityPolicy(config, undefined, [UNAVAILABLE_STYLE]),
    })
    .type('text/html; charset=utf-8')
    .send(UNAVAILABLE_PAGE)
}
