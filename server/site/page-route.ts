// Every GET that no other route took is a page: Vike renders it with the content service in
// pageContext (server-only, never passed to the client). Anonymous answers go through the page
// cache (server/site/page-cache.ts) with strong validators, so a repeat costs no rendering and a
// conditional request gets 304. Registered last. Routes only, so a plain (encapsulated) plugin.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { renderPage } from 'vike/server'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { ROOT_DIR, type Config } from '../config'
import { isNotModified, PageCache, pageCacheKey, pickVariant, type CachedPage, type RenderedPage } from './page-cache'
import { contentSecurityPolicy, newNonce } from './csp'
import { escapeHtml } from '../../src/format/escape-html'
import { LEAD_FORM_PATH } from '../../src/lead/lead-form-state'

type HttpResponse = NonNullable<Awaited<ReturnType<typeof renderPage>>['httpResponse']>

/** The back office's session cookie: a signed-in owner always gets a fresh, uncached page. */
export const ADMIN_SESSION_COOKIE = 'vitrina_admin'
/** Browsers and proxies may keep a page, but ask (If-None-Match) before using it again. */
const CACHED_PAGE_CONTROL = 'public, no-cache'
/** The back office's pages (and their pageContext.json): never cached, never indexed. */
export function isAdminPath(url: string): boolean {
  const pathname = url.split('?')[0]
  return pathname === '/admin' || pathname.startsWith('/admin/')
}
const ADMIN_PAGE_HEADERS = { 'cache-control': 'no-store', 'x-robots-tag': 'noindex, nofollow' }
// Pages made anew for each visitor: the plain lead form carries its own idempotency key and time.
const PER_VISITOR_PATHS = new Set([LEAD_FORM_PATH, `${LEAD_FORM_PATH}/index.pageContext.json`])

/** Copies a rendered page onto the reply: its status and headers (or the ones given) and body. */
export async function sendPage(
  reply: FastifyReply,
  page: HttpResponse,
  policy: (html: string) => string,
  override: { status?: number; headers?: Record<string, string> } = {},
) {
  const body = await page.getBody()
  reply.code(override.status ?? page.statusCode)
  for (const [name, value] of page.headers) reply.header(name, value)
  reply.header('content-security-policy', policy(body))
  for (const [name, value] of Object.entries(override.headers ?? {})) reply.header(name, value)
  return reply.send(body)
}

/** What a visitor sees of a page the cache does not hold while the database is away. */
const UNAVAILABLE_PAGE = `<!doctype html><html lang="ru"><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>Сайт временно недоступен</title><body style="font-family:system-ui,sans-serif;text-align:center;padding:48px 16px"><h1>Сайт временно недоступен</h1><p>Мы уже чиним. Обновите страницу через минуту.</p></body></html>\n`
const RETRY_AFTER_SECONDS = 30
const OUTAGE_LOG_EVERY_MS = 60_000

function redirectBody(location: string): string {
  const href = escapeHtml(location)
  return `<!doctype html><html lang="ru"><meta charset="utf-8"><title>Страница переехала</title><p>Страница переехала: <a href="${href}">${href}</a></p></html>\n`
}

export async function vikeSsrRoutes(app: FastifyInstance, { config }: { config: Config }) {
  if (config.isProduction) {
    // Load the server build explicitly: works even if node_modules was reinstalled after the build.
    await import(pathToFileURL(path.join(ROOT_DIR, 'dist/server/entry.mjs')).href)
  }
  const cache = config.pageCacheBytes > 0 ? new PageCache(config.pageCacheBytes) : null
  let outageLoggedAt = 0
  // Any content write, in this process or another, empties the cache.
  if (cache) app.content.onInvalidate(() => cache.clear())

  async function render(request: FastifyRequest, url: string): Promise<RenderedPage> {
    // One nonce per rendering: a cached page keeps it with its bytes (docs/decisions/014-csp.md).
    const nonce = newNonce()
    const pageContext = await renderPage({
      urlOriginal: url,
      headersOriginal: request.headers,
      content: app.content,
      cspNonce: nonce,
    })
    const { httpResponse } = pageContext
    // A 404/410 from `throw render()` is an answer, not a failure: only 5xx pages are errors.
    if (httpResponse.statusCode >= 500) {
      request.log.error({ err: pageContext.errorWhileRendering }, 'page rendering failed')
    }
    const headers = Object.fromEntries(httpResponse.headers.map(([name, value]) => [name.toLowerCase(), value]))
    const { location } = headers
    if (httpResponse.statusCode >= 300 && httpResponse.statusCode < 400 && location) {
      // Vike's redirect body is an English line with a script; a person who sees it gets a link.
      const body = redirectBody(location)
      return {
        status: httpResponse.statusCode,
        headers: {
          location,
          'content-type': 'text/html; charset=utf-8',
          'content-security-policy': contentSecurityPolicy(body, config),
        },
        body: Buffer.from(body),
      }
    }
    const body = await httpResponse.getBody()
    if (headers['content-type']?.startsWith('text/html')) {
      headers['content-security-policy'] = contentSecurityPolicy(body, config, nonce)
    }
    return { status: httpResponse.statusCode, headers, body: Buffer.from(body) }
  }

  function cacheable(request: FastifyRequest, key: string | null): key is string {
    if (!cache || key === null) return false
    if (PER_VISITOR_PATHS.has(key.split('?')[0]) || isAdminPath(key)) return false
    return !(request.headers.cookie ?? '').split(';').some((c) => c.trim().startsWith(`${ADMIN_SESSION_COOKIE}=`))
  }

  // Pages go out as Buffers, which the root compression hook (server/http/compression.ts)
  // compresses in one call: @fastify/compress's route hooks (its onRequest, preParsing and onSend)
  // would only look and pass on every page request.
  app.get('/*', { compress: false, decompress: false }, async (request, reply) => {
    const url = request.raw.url ?? '/'
    // The key parses the URL (URL, URLSearchParams): worth it only when there is a cache to ask.
    const key = cache ? pageCacheKey(url) : null
    if (!cacheable(request, key)) {
      const page = await render(request, url)
      reply.code(page.status).headers(page.headers)
      if (isAdminPath(url)) reply.headers(ADMIN_PAGE_HEADERS)
      return reply.send(page.body)
    }
    await app.content.sync() // another process's write empties the cache (at most one read a second)
    if (!app.content.databaseReachable) {
      // The last good version of each page keeps being served; a line a minute, not a request.
      if (Date.now() - outageLoggedAt > OUTAGE_LOG_EVERY_MS) {
        outageLoggedAt = Date.now()
        request.log.warn('database unreachable: pages served from the page cache')
      }
      const kept = cache!.peek(key)
      if (kept) return sendCached(request, reply, kept, url)
      return reply
        .code(503)
        .headers({
          'retry-after': String(RETRY_AFTER_SECONDS),
          'cache-control': 'no-store',
          'content-security-policy': contentSecurityPolicy(UNAVAILABLE_PAGE, config),
        })
        .type('text/html; charset=utf-8')
        .send(UNAVAILABLE_PAGE)
    }
    if (outageLoggedAt !== 0) {
      outageLoggedAt = 0
      request.log.info('database reachable again')
    }
    // Rendered from the key (the URL without its tracking parameters): one page for every visitor.
    const { page, hit } = await cache!.get(key, () => render(request, key))
    reply.header('x-vitrina-cache', hit ? 'hit' : 'miss')
    return sendCached(request, reply, page, url)
  })
}

function sendCached(request: FastifyRequest, reply: FastifyReply, page: CachedPage, url: string) {
  const headers: Record<string, string> = { ...page.headers }
  delete headers['content-length']
  delete headers['content-encoding']
  if (headers.location) headers.location = withTrackingOf(headers.location, url)
  reply.headers({
    ...headers,
    etag: page.etag,
    'last-modified': page.lastModified,
    'cache-control': CACHED_PAGE_CONTROL,
    vary: 'Accept-Encoding',
  })
  if (isNotModified(page, request.headers)) {
    reply.removeHeader('content-type')
    return reply.code(304).send()
  }
  reply.code(page.status)
  const encoding = pickVariant(page, request.headers['accept-encoding'])
  if (encoding === null) return reply.send(page.body)
  reply.header('content-encoding', encoding)
  return reply.send(encoding === 'br' ? page.br : page.gzip)
}

/** A cached redirect's target with the request's own tracking parameters put back on it. */
function withTrackingOf(location: string, requestUrl: string): string {
  const request = new URL(requestUrl, 'http://localhost')
  const target = new URL(location, 'http://localhost')
  for (const [name, value] of request.searchParams) {
    if (!target.searchParams.has(name)) target.searchParams.append(name, value)
  }
  return location.startsWith('/') ? `${target.pathname}${target.search}` : target.href
}
