// GET /feeds/yandex.xml: the YML feed for Yandex Direct and Товары (docs/decisions/029-price-list-and-feeds.md),
// when YANDEX_FEED is on. Written from the database a page of offers at a time straight into gzip,
// so the process never holds the catalogue or the feed as one string. Kept per content version, a
// write anywhere makes the next request build it anew. Each representation (gzip, brotli, the
// plain text) is made once per version, gzip with the build and the other two from it on their
// first request, and has its own strong ETag (`"yml-N-gz"`, `"yml-N-br"`, `"yml-N"`, as the page
// cache names them): a request is answered from what is kept, never compressed anew (issue #36).
// While the database is away the kept copy is served, or the outage answer (503, Retry-After) when
// there is none.
import { once } from 'node:events'
import { promisify } from 'node:util'
import zlib from 'node:zlib'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Config } from '../../config/config'
import type { EffectiveSettings } from '../../settings/effective-settings'
import { readContentVersion } from '../../data/db'
import { isDatabaseUnavailable } from '../../data/unavailable'
import { pickEncoding, type Encoding } from '../../http/compression'
import { sendOutagePage } from '../../http/outage'
import { feedImagePath, PATHS } from '../../../src/site/paths'
import { FEED_PAGE, loadFeedCategories, loadFeedOffers, loadHomeTitle } from './feed-store'
import { ymlHead, ymlOffer, YML_TAIL, type ShopInfo } from './yml'

const gunzip = promisify(zlib.gunzip)
const brotli = promisify(zlib.brotliCompress)

/**
 * Brotli quality of the feed's br copy, made once per content version. On 3.7 MiB of feed text
 * (10,000 offers; gzip 203 KiB): quality 4 gives 149 KiB for 30 ms of CPU, 5 gives 108 KiB for
 * 39 ms, 9 only 103 KiB for 108 ms, and 10–11 take 4–8 s.
 */
const FEED_BROTLI_QUALITY = 5

export type FeedEncoding = Encoding | 'identity'

interface BuiltFeed {
  readonly version: number
  readonly lastModified: string
  readonly gzip: Buffer
  readonly offers: number
}

/** A built feed and its representations, each made once. */
interface KeptFeed extends BuiltFeed {
  /** Strong validators, one per representation (RFC 9110 §8.8.3): their bodies differ */
  readonly etags: Readonly<Record<FeedEncoding, string>>
  /** The brotli and plain bodies, each made from the gzip body on its first request */
  readonly derived: Map<Exclude<FeedEncoding, 'gzip'>, Promise<Buffer>>
  /** The settings' version it was made with (the shop's name, address and default brand) */
  readonly settingsVersion: number
}

function keep(feed: BuiltFeed, settingsVersion: number): KeptFeed {
  const tag = `yml-${feed.version}.${settingsVersion}`
  return {
    ...feed,
    etags: { identity: `"${tag}"`, br: `"${tag}-br"`, gzip: `"${tag}-gz"` },
    derived: new Map(),
    settingsVersion,
  }
}

/** The brotli body, from the kept text if a request made it, else from the gzip body (the text passes through). */
async function brotliOf(feed: KeptFeed): Promise<Buffer> {
  const text = await (feed.derived.get('identity') ?? gunzip(feed.gzip))
  return brotli(text, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: FEED_BROTLI_QUALITY,
      [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: text.length,
    },
  })
}

/** The body of `feed` in `encoding`, and whether it was kept already (false: made for this request). */
function bodyOf(feed: KeptFeed, encoding: FeedEncoding): { body: Promise<Buffer>; kept: boolean } {
  if (encoding === 'gzip') return { body: Promise.resolve(feed.gzip), kept: true }
  const made = feed.derived.get(encoding)
  if (made) return { body: made, kept: true }
  const making = encoding === 'br' ? brotliOf(feed) : gunzip(feed.gzip)
  feed.derived.set(encoding, making)
  // A failure is the requests' to report; the next request tries again.
  making.catch(() => {
    if (feed.derived.get(encoding) === making) feed.derived.delete(encoding)
  })
  return { body: making, kept: false }
}

/** Writes the whole feed into gzip, a page of offers at a time. */
export async function buildYandexFeed(app: FastifyInstance, shop: ShopInfo, version: number): Promise<BuiltFeed> {
  const at = new Date()
  const gzip = zlib.createGzip({ level: 6 })
  const chunks: Buffer[] = []
  gzip.on('data', (chunk: Buffer) => chunks.push(chunk))
  const ended = once(gzip, 'end')
  const write = async (text: string) => {
    if (!gzip.write(text)) await once(gzip, 'drain')
  }
  const categories = await loadFeedCategories(app.db)
  const categoryIds = new Set(categories.map((c) => c.id))
  await write(ymlHead(shop, categories, at))
  let offers = 0
  // The next page is read while this one is written: the database's round trips overlap the text.
  const read = (after: number) => {
    const page = loadFeedOffers(app.db, after)
    // Awaited below; should a write fail first, its failure is the one reported.
    page.catch(() => {})
    return page
  }
  let next = read(0)
  for (;;) {
    const page = await next
    const more = page.length === FEED_PAGE
    if (more) next = read(page[page.length - 1].id)
    let text = ''
    for (const offer of page) {
      // categoryId must name a category of the feed: a product under a hidden section stays out.
      if (!categoryIds.has(offer.parentId)) continue
      text += ymlOffer(shop, offer)
      offers++
    }
    if (text) await write(text)
    if (!more) break
  }
  gzip.end(YML_TAIL)
  await ended
  return { version, lastModified: at.toUTCString(), gzip: Buffer.concat(chunks), offers }
}

/**
 * Whether the request's validators match the representation it gets: If-None-Match against that
 * representation's tag alone (RFC 9110 §13.1.2: a client holding the brotli body that now asks for
 * gzip must get the gzip body), else If-Modified-Since.
 */
function notModified(request: FastifyRequest, etag: string, lastModified: string): boolean {
  const match = request.headers['if-none-match']
  if (match !== undefined) {
    return match.trim() === '*' || match.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)
  }
  const since = Date.parse(request.headers['if-modified-since'] ?? '')
  return Number.isFinite(since) && since >= Date.parse(lastModified)
}

/** Answers with the representation the request accepts (brotli, then gzip, else the text). */
async function send(request: FastifyRequest, reply: FastifyReply, feed: KeptFeed, built: boolean) {
  const encoding: FeedEncoding = pickEncoding(request.headers['accept-encoding'], ['br', 'gzip']) ?? 'identity'
  const etag = feed.etags[encoding]
  reply.headers({
    etag,
    'last-modified': feed.lastModified,
    'cache-control': 'public, max-age=0, must-revalidate',
    vary: 'Accept-Encoding',
  })
  if (notModified(request, etag, feed.lastModified)) {
    return reply
      .header('x-vitrina-cache', built ? 'miss' : 'hit')
      .code(304)
      .send()
  }
  const { body, kept } = bodyOf(feed, encoding)
  reply.header('x-vitrina-cache', kept && !built ? 'hit' : 'miss').type('application/xml; charset=utf-8')
  if (encoding !== 'identity') reply.header('content-encoding', encoding)
  return reply.send(await body)
}

export async function yandexFeedRoutes(app: FastifyInstance, { config }: { config: Config }) {
  // On or off, and the shop's details, as the settings in effect say at each request (YANDEX_FEED…,
  // else the back office's «Настройки»): a change there is a new feed, without a restart.
  // Only the current version's copies are held (and, while a new one builds, the last one's).
  let kept: KeptFeed | null = null
  let building: { version: number; settingsVersion: number; feed: Promise<KeptFeed> } | null = null

  async function shopInfo(settings: EffectiveSettings): Promise<ShopInfo> {
    const { feeds, publicUrl } = settings
    // One row, not the route map: a feed asked for right after a write does not load all of it.
    const home = await loadHomeTitle(app.db)
    const name = feeds.shopName ?? (home.split(' — ')[0].trim() || new URL(publicUrl).hostname)
    return {
      name,
      company: feeds.company ?? name,
      url: publicUrl,
      pictureUrl: (source) => `${publicUrl}${feedImagePath(source)}`,
      defaultVendor: feeds.defaultVendor,
    }
  }

  /**
   * The feed of content `version` made with the settings in effect, and whether this call built it
   * (the other callers share its build). A new settings version makes a new feed too.
   */
  async function feedOf(version: number): Promise<{ feed: KeptFeed; built: boolean }> {
    const settings = app.settings.current()
    if (kept?.settingsVersion !== settings.version) kept = null
    if (kept?.version === version) return { feed: kept, built: false }
    if (building?.version === version && building.settingsVersion === settings.version)
      return { feed: await building.feed, built: false }
    const feed = shopInfo(settings)
      .then((shop) => buildYandexFeed(app, shop, version))
      .then((built) => keep(built, settings.version))
    building = { version, settingsVersion: settings.version, feed }
    try {
      const built = await feed
      if (app.settings.current().version === settings.version && (!kept || kept.version < built.version)) kept = built
      return { feed: built, built: true }
    } finally {
      if (building?.feed === feed) building = null
    }
  }

  // Its bodies are kept compressed: @fastify/compress has nothing to add.
  app.get(PATHS.yandexFeed, { compress: false }, async (request, reply) => {
    // Off: the path is no page, as any unknown one.
    if (!app.settings.current().feeds.yandexFeed) return app.pages.answer(request, reply)
    try {
      const { feed, built } = await feedOf(await readContentVersion(app.db))
      return await send(request, reply, feed, built)
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error
      app.content.markUnreachable()
      if (kept) return send(request, reply, kept, false)
      return sendOutagePage(reply, config)
    }
  })
}
