// The one way a page is answered (docs/decisions/022-house-layout.md): the catch-all route, the
// no-JS lead form sent back with its messages, and the back office's shell all call
// app.pages.answer(). It renders through Vike's renderPage() with the content service in
// pageContext (server-only), keeps what the page allows in the page cache (server/site/page-cache.ts)
// with strong validators, and decides an outage from the error the rendering actually hit: a page
// answer is the last good copy or the 503 outage page while the database is away, never a 500.
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { renderPage } from 'vike/server'
import { hasAdminCookie } from '../admin/session-plugin'
import { ROOT_DIR, type Config } from '../config/config'
import { contentSecurityPolicy, newNonce } from '../http/csp'
import { sendOutagePage } from '../http/outage'
import { isNotModified, PageCache, pickVariant, type CachedPage, type RenderedPage } from './page-cache'
import { PageReads } from '../../src/site/page-tags'
import { DirectRenderer } from './direct-render'
import { PageWarmer } from './page-warmer'
import { vikeAnswer } from './vike-answer'
import { switchOffVikeAsyncStore } from './vike-async-store'
import { withTrackingOf, withTrackingTags } from './tracking-tags'

interface AnswerOptions {
  /** What to render instead of the request's own URL (the form page for a refused lead) */
  readonly url?: string
  /** Values for this one rendering's pageContext (a refused lead's values and messages) */
  readonly context?: Readonly<Record<string, unknown>>
  /** The status to answer with instead of the page's own */
  readonly status?: number
}

interface PageAnswerer {
  /** Renders (or takes from the cache) the page and sends it. */
  answer(request: FastifyRequest, reply: FastifyReply, options?: AnswerOptions): Promise<FastifyReply>
  /** Resolves once no page is waiting to be warmed after a write (tests) */
  warmed(): Promise<void>
  /** Pages rendered so far by Vike's renderPage() and without it (docs/decisions/036-direct-render.md) */
  readonly renderings: { vike: number; direct: number }
}

declare module 'fastify' {
  interface FastifyInstance {
    pages: PageAnswerer
  }
}

/** Browsers and proxies may keep a page, but ask (If-None-Match) before using it again. */
const CACHED_PAGE_CONTROL = 'public, no-cache'
const OUTAGE_LOG_EVERY_MS = 60_000
/** Quiet after a large write's last drop before its most-visited pages are rendered again */
const WARM_QUIET_MS = 2000

/** What one rendering gave: the answer, or the news that the database is away. */
type Rendering = RenderedPage | 'unavailable'

export const pagesPlugin = fp<{ config: Config; warmQuietMs?: number; directRender?: boolean }>(
  async (app, { config, warmQuietMs, directRender = config.isProduction }) => {
    if (config.isProduction) {
      // Load the server build explicitly: works even if node_modules was reinstalled after the build.
      await import(pathToFileURL(path.join(ROOT_DIR, 'dist/server/entry.mjs')).href)
      if (!(await switchOffVikeAsyncStore())) app.log.warn('Vike keeps its rendering store elsewhere: not switched off')
    }
    const cache = config.pageCacheBytes > 0 ? new PageCache(config.pageCacheBytes) : null
    // The catalogue's pages without Vike's renderPage once Vike rendered one (docs/decisions/036-direct-render.md).
    const direct = directRender
      ? new DirectRenderer({
          content: app.content,
          development: !config.isProduction,
          policy: (nonce) => contentSecurityPolicy(app.settings.current().policy, nonce),
          warn: (message) => app.log.warn(message),
        })
      : null
    /** Visitors' renderings under way: a warm rendering waits while there is one */
    let rendering = 0
    const warmer = new PageWarmer({
      pages: cache ? config.pageWarmPages : 0,
      quietMs: warmQuietMs ?? WARM_QUIET_MS,
      busy: () => rendering > 0,
      render: async (key) => {
        if (!cache || cache.peek(key)) return
        await cache.get(key, async () => {
          const rendered = await render(app.log, {}, key, undefined)
          if (rendered === 'unavailable') throw new DatabaseAway()
          return rendered
        })
      },
      onError: (err, key) => {
        if (!(err instanceof DatabaseAway)) app.log.warn({ err, url: key }, 'warming a page after a write failed')
      },
    })
    app.addHook('onClose', async () => warmer.stop())
    // A content write, in this process or another, drops the pages that read what it changed; after
    // a large one the most-visited of them are rendered again in the background.
    if (cache) app.content.onInvalidate((changed) => warmer.droppedPages(cache.drop(changed)))
    let outageLoggedAt = 0
    const renderings = { vike: 0, direct: 0 }

    /** A visitor's rendering: counted, so that warming stays out of its way. */
    async function renderFor(request: FastifyRequest, url: string, context: AnswerOptions['context']) {
      rendering++
      try {
        return await render(request.log, request.headers, url, context)
      } finally {
        rendering--
      }
    }

    async function render(
      log: FastifyBaseLogger,
      requestHeaders: FastifyRequest['headers'],
      url: string,
      context: AnswerOptions['context'],
    ): Promise<Rendering> {
      // One nonce per rendering: a cached page keeps it with its bytes (docs/decisions/014-csp.md).
      const nonce = newNonce()
      const reads = new PageReads()
      if (direct && context === undefined) {
        const page = await direct.render(url, nonce, reads)
        if (page === 'unavailable') {
          app.content.markUnreachable()
          return page
        }
        if (page) {
          renderings.direct++
          return page
        }
      }
      renderings.vike++
      const pageContext = await renderPage({
        ...context,
        urlOriginal: url,
        headersOriginal: requestHeaders,
        content: app.content,
        catalogueSearch: app.catalogueSearch,
        requestList: app.requestList,
        cspNonce: nonce,
        pageReads: reads,
      })
      const page = await vikeAnswer(pageContext, {
        url,
        oneOff: context !== undefined,
        nonce,
        tags: reads.tags,
        policy: app.settings.current().policy,
        log,
      })
      if (page === 'unavailable') {
        app.content.markUnreachable()
        return page
      }
      if (direct && context === undefined && page.html !== null) direct.learn(pageContext, url, page.html, nonce)
      return page.rendered
    }

    /** The database is away: the kept copy of the page, else the outage page; a log line a minute. */
    function answerOutage(request: FastifyRequest, reply: FastifyReply, kept: CachedPage | undefined, url: string) {
      if (Date.now() - outageLoggedAt > OUTAGE_LOG_EVERY_MS) {
        outageLoggedAt = Date.now()
        request.log.warn('database unreachable: pages served from the page cache')
      }
      return kept ? sendCached(request, reply, kept, url) : sendOutagePage(reply, config)
    }

    function sendFresh(reply: FastifyReply, page: RenderedPage, status?: number) {
      reply.code(status ?? page.status).headers(page.headers)
      if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-cache')
      return reply.send(page.body)
    }

    async function answer(request: FastifyRequest, reply: FastifyReply, options: AnswerOptions = {}) {
      const url = options.url ?? request.raw.url ?? '/'
      // The key parses the URL: worth it only when there is a cache to ask. A one-off rendering
      // (values of one visitor) and a signed-in owner never meet the cache.
      const key = cache && options.context === undefined && !hasAdminCookie(request) ? cache.keyOf(url) : null
      if (key === null) {
        const page = await renderFor(request, url, options.context)
        if (page === 'unavailable') return answerOutage(request, reply, undefined, url)
        if (hasAdminCookie(request)) reply.header('cache-control', 'no-store')
        // A status of the caller's (a refused lead: 400) only replaces a page rendered as usual.
        return sendFresh(reply, page, page.status === 200 ? options.status : undefined)
      }
      await app.content.sync() // another process's write empties the cache (at most one read a second)
      if (!app.content.databaseReachable) return answerOutage(request, reply, cache!.peek(key), url)
      if (outageLoggedAt !== 0) {
        outageLoggedAt = 0
        request.log.info('database reachable again')
      }
      // Rendered from the key: one page for every visitor, whatever tags or junk the URL carried.
      let found: { page: CachedPage; hit: boolean }
      try {
        found = await cache!.get(key, async () => {
          const rendered = await renderFor(request, key, undefined)
          if (rendered === 'unavailable') throw new DatabaseAway()
          return rendered
        })
        warmer.visited(key)
      } catch (error) {
        if (error instanceof DatabaseAway) return answerOutage(request, reply, undefined, url)
        throw error
      }
      const { page, hit } = found
      if (!page.kept) return sendFresh(reply, withTrackingTags(page, url))
      reply.header('x-vitrina-cache', hit ? 'hit' : 'miss')
      return sendCached(request, reply, page, url)
    }

    app.decorate('pages', { answer, warmed: () => warmer.settled(), renderings } satisfies PageAnswerer)
  },
  { name: 'pages', dependencies: ['content', 'search'] },
)

class DatabaseAway extends Error {}

function sendCached(request: FastifyRequest, reply: FastifyReply, page: CachedPage, url: string) {
  const headers: Record<string, string> = { ...page.headers }
  delete headers['content-length']
  delete headers['content-encoding']
  if (headers.location) headers.location = withTrackingOf(headers.location, url)
  const encoding = pickVariant(page, request.headers['accept-encoding'])
  reply.headers({
    ...headers,
    etag: page.etags[encoding ?? 'identity'],
    'last-modified': page.lastModified,
    'cache-control': CACHED_PAGE_CONTROL,
    vary: 'Accept-Encoding',
  })
  if (isNotModified(page, request.headers)) {
    reply.removeHeader('content-type')
    return reply.code(304).send()
  }
  reply.code(page.status)
  if (encoding === null) return reply.send(page.body)
  reply.header('content-encoding', encoding)
  return reply.send(encoding === 'br' ? page.br : page.gzip)
}
