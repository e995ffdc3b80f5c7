// A page's redirect as a person sees it: Vike's redirects (page-answer.ts) and a path spelled
// another way (page-route.ts) answer with a Russian line and a link, not Vike's English and script.
import type { FastifyReply } from 'fastify'
import { escapeHtml } from '../../src/format/escape-html'
import type { Config } from '../config/config'
import { contentSecurityPolicy } from '../http/csp'

export function redirectBody(location: string): string {
  const href = escapeHtml(location)
  return `<!doctype html><html lang="ru"><meta charset="utf-8"><title>Страница переехала</title><p>Страница переехала: <a href="${href}">${href}</a></p></html>\n`
}

/**
 * A 301 to `location`, answered here: not rendered, and kept neither in the page cache nor by a
 * browser (`no-store`), so a spelling of an /admin path gives nothing away either.
 */
export function sendMovedPermanently(reply: FastifyReply, config: Config, location: string): FastifyReply {
  return reply
    .code(301)
    .headers({
      location,
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': contentSecurityPolicy(config),
      'cache-control': 'no-store',
    })
    .send(Buffer.from(redirectBody(location)))
}
