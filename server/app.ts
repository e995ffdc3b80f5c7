// buildApp(config): the whole server without listening, so tests drive it with inject().
// Fixed registration order: data, cross-cutting plugins, API routes, assets, SSR catch-all last.
import zlib from 'node:zlib'
import compress from '@fastify/compress'
import Fastify, { type FastifyServerOptions } from 'fastify'
import type { KyselyPlugin } from 'kysely'
import { createAdminCheck } from './admin/access'
import { adminSessionPlugin } from './admin/session-plugin'
import { apiRoutes } from './api-routes'
import type { Config } from './config/config'
import { dbPlugin } from './data/db-plugin'
import { settingsPlugin } from './settings/settings-plugin'
import { deliveryPlugin } from './leads/delivery/delivery-plugin'
import { intakePlugin } from './leads/intake/intake-plugin'
import { requestListPlugin } from './leads/list/list-view'
import { requestListRoutes } from './leads/list/list-routes'
import { privacyPlugin } from './privacy/privacy-plugin'
import { legacyUploadsPlugin } from './media/legacy-uploads'
import { mediaRoutes } from './media/media-routes'
import { mediaStoragePlugin } from './media/storage/storage-plugin'
import { childLoggerFactory, logMethod } from './http/client-gone'
import { compressionPlugin } from './http/compression'
import { errorsPlugin } from './http/errors'
import { healthRoutes } from './http/health'
import { responseHeadersPlugin } from './http/response-headers'
import { seoRoutes } from './site/seo'
import { speculationRulesRoutes } from './site/speculation-rules'
import { staticAssetsPlugin } from './http/static-assets'
import { pagesPlugin } from './site/page-answer'
import { pageRoutes } from './site/page-route'
import { contentPlugin } from './site/content-plugin'
import { writeDoorPlugin } from './catalogue/write-door'
import { operatorDetails } from './privacy/operator'
import { imageColumns } from './model-api/registry'
import { searchPlugin } from './catalogue/search/search-plugin'
import { indexNowPlugin } from './catalogue/indexnow/indexnow'
import { yandexFeedRoutes } from './catalogue/feed/yandex-feed'
import { exchangeRoutes } from './catalogue/exchange/exchange-routes'
import { lastExchange } from './catalogue/exchange/exchange-admin-routes'
import { oneCOrders } from './leads/exchange/one-c-orders'
import { API_PREFIX, isAdminPath } from '../src/site/paths'

function loggerOptions(config: Config, stream?: NodeJS.WritableStream): FastifyServerOptions['logger'] {
  if (config.logLevel === 'silent') return false
  return {
    level: config.logLevel,
    ...(stream ? { stream } : {}),
    // A client that goes away mid-answer is logged at debug, not as an error (server/http/client-gone.ts).
    hooks: { logMethod },
    // Secrets and personal data never reach the log: a request is logged as its method and URL
    // only (no headers, no client address), and bodies are never logged.
    serializers: {
      // API queries may filter on personal fields (an admin searching leads by e-mail), and the
      // one-time link to choose the owner's password carries its token: the query strings of the
      // API and the back office stay out of the log.
      req: (request: { method: string; url: string; id: string }) => ({
        method: request.method,
        url: hidesQuery(request.url) ? request.url.split('?')[0] : request.url,
        id: request.id,
      }),
    },
  }
}

function hidesQuery(url: string): boolean {
  return url.startsWith(`${API_PREFIX}/`) || isAdminPath(url.split('?')[0])
}

/**
 * What tests replace: the clock (admin sessions, the sign-in limit, the content version check,
 * the retention job),
 * where the log goes, and plugins of the database layer (to inject a fault into a query).
 */
export interface BuildOptions {
  readonly now?: () => Date
  readonly logStream?: NodeJS.WritableStream
  readonly databasePlugins?: readonly KyselyPlugin[]
  /** URLs per sitemap file before /sitemap.xml becomes an index (default 50,000; tests lower it) */
  readonly sitemapUrlsPerFile?: number
  /** Milliseconds one `import` call of the 1C exchange works before it answers `progress` (tests lower it) */
  readonly exchangeStepMs?: number
  /** Milliseconds of quiet after a large write before its most-visited pages are rendered again */
  readonly pageWarmQuietMs?: number
  /** Whether the catalogue's pages are rendered without Vike once learned (default: in production) */
  readonly directRender?: boolean
  /** How often the stored settings' version is read (default 2 s; tests lower it) */
  readonly settingsPollMs?: number
}

export async function buildApp(config: Config, options: BuildOptions = {}) {
  const app = Fastify({
    logger: loggerOptions(config, options.logStream),
    childLoggerFactory,
    trustProxy: config.trustProxy === false ? false : config.trustProxy.split(',').map((s) => s.trim()),
    // Zero-downtime reloads: while closing, keep answering requests that arrive on open
    // keep-alive connections (no 503s, no reset sockets), tell each client to drop its
    // connection, and let idle ones end on the keep-alive timeout the client was told about.
    forceCloseConnections: false,
    return503OnClosing: false,
    keepAliveTimeout: 5_000,
  })
  // The media store first: the demo shop's images are written through it.
  await app.register(mediaStoragePlugin, { config })
  await app.register(dbPlugin, { config, plugins: options.databasePlugins })
  // The settings in effect (environment, else the back office's «Настройки»), polled for changes.
  await app.register(settingsPlugin, { config, pollMs: options.settingsPollMs })
  // Every content write goes through the door (catalogue/write-door.ts), the demo seed's first.
  await app.register(writeDoorPlugin, { config })
  await app.register(contentPlugin, {
    config,
    now: options.now,
    storeDemoImage: (key, bytes) => app.mediaStorage.write(key, bytes),
    operator: async () => (await operatorDetails(app.db, config)).values,
  })
  await app.register(searchPlugin)
  await app.register(adminSessionPlugin, { config, now: options.now })
  await app.register(legacyUploadsPlugin, { columns: imageColumns() })
  await app.register(indexNowPlugin, { config })
  await app.register(deliveryPlugin, { config })
  await app.register(intakePlugin, { config })
  await app.register(requestListPlugin)
  await app.register(privacyPlugin, { config, now: options.now })
  await app.register(errorsPlugin)
  await app.register(pagesPlugin, {
    config,
    warmQuietMs: options.pageWarmQuietMs,
    directRender: options.directRender,
  })
  // Pages, API answers and assets go out with brotli or gzip: mostly phones, often on 3G.
  // Registered before the routes they must wrap (@fastify/static included). Bodies held whole go
  // through one zlib call (server/http/compression.ts); streams through @fastify/compress.
  // Quality 4, not zlib's default 11: on the fly, 11 cost ~3 ms of CPU per 30 KB page, more than
  // rendering it; cached pages carry their own quality-9 variants made once (server/site/page-cache.ts).
  await app.register(compressionPlugin)
  await app.register(compress, {
    global: true,
    threshold: 1024,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } },
    zlibOptions: { level: 6 },
  })
  await app.register(responseHeadersPlugin, { config })
  await app.register(seoRoutes, { config, sitemapUrlsPerFile: options.sitemapUrlsPerFile })
  await app.register(speculationRulesRoutes)
  await app.register(yandexFeedRoutes, { config })
  await app.register(mediaRoutes)
  const now = options.now ?? (() => new Date())
  await app.register(exchangeRoutes, {
    exchange: () => app.settings.current().exchange1c,
    sale: oneCOrders(app.db, { timeZone: config.siteTimezone, now }),
    now,
    stepBudgetMs: options.exchangeStepMs,
  })
  const access = createAdminCheck(config.adminToken, app.adminSession)
  await app.register(healthRoutes, {
    isOwner: async (request) => (await access(request)) === 'admin',
    extraDetails: async () => (app.settings.current().exchange1c ? lastExchange(app.db, now()) : {}),
  })
  await app.register(apiRoutes, { prefix: API_PREFIX, config })
  await app.register(requestListRoutes, { config })
  await app.register(staticAssetsPlugin, { config })
  await app.register(pageRoutes, { config })
  return app
}

export type App = Awaited<ReturnType<typeof buildApp>>
