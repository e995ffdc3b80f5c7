// GET /feeds/yandex.xml: the YML feed for Yandex Direct and Товары (docs/decisions/029-price-list-and-feeds.md),
// when YANDEX_FEED is on. Written from the database a page of offers at a time straight into gzip,
// so the process holds the compressed feed (about a tenth of the text) and never the catalogue or
// the feed as one string. Kept per content version: the ETag is the version, a write anywhere makes
// the next request build it anew. While the database is away the kept copy is served, or the outage
// answer (503, Retry-After) when there is none.
import { once } from 'node:events'
import { Readable } from 'node:stream'
import zlib from 'node:zlib'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Config } from '../../config/config'
import { readContentVersion } from '../../data/db'
import { isDatabaseUnavailable } from '../../data/unavailable'
import { pickEncoding } from '../../http/compression'
import { sendOutagePage } from '../../http/outage'
import { PATHS } from '../../../src/site/paths'
import { FEED_PAGE, loadFeedCategories, loadFeedOffers, loadHomeTitle } from './feed-store'
import { ymlHead, ymlOffer, YML_TAIL, type ShopInfo } from './yml'

interface BuiltFeed {
  readonly version: number
  readonly etag: string
  readonly lastModified: string
  readonly gzip: Buffer
  readonly offers: number
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
  return { version, etag: `"yml-${version}"`, lastModified: at.toUTCString(), gzip: Buffer.concat(chunks), offers }
}

function notModified(request: FastifyRequest, feed: BuiltFeed): boolean {
  const match = request.headers['if-none-match']
  if (match !== undefined) return match.split(',').some((tag) => tag.trim().replace(/^W\//, '') === feed.etag)
  const since = Date.parse(request.headers['if-modified-since'] ?? '')
  return Number.isFinite(since) && since >= Date.parse(feed.lastModified)
}

function send(request: FastifyRequest, reply: FastifyReply, feed: BuiltFeed) {
  reply
    .header('etag', feed.etag)
    .header('last-modified', feed.lastModified)
    .header('cache-control', 'public, max-age=0, must-revalidate')
    .header('vary', 'accept-encoding')
    .type('application/xml; charset=utf-8')
  if (notModified(request, feed)) return reply.code(304).send()
  if (pickEncoding(request.headers['accept-encoding'], ['gzip']) === 'gzip') {
    return reply.header('content-encoding', 'gzip').send(feed.gzip)
  }
  return reply.send(Readable.from([feed.gzip]).pipe(zlib.createGunzip()))
}

export async function yandexFeedRoutes(app: FastifyInstance, { config }: { config: Config }) {
  if (!config.feeds.yandexFeed) return
  let kept: BuiltFeed | null = null
  let building: { version: number; feed: Promise<BuiltFeed> } | null = null

  async function shopInfo(): Promise<ShopInfo> {
    // One row, not the route map: a feed asked for right after a write does not load all of it.
    const home = await loadHomeTitle(app.db)
    const name = config.feeds.shopName ?? (home.split(' — ')[0].trim() || new URL(config.publicUrl).hostname)
    return {
      name,
      company: config.feeds.company ?? name,
      url: config.publicUrl,
      pictureUrl: (source) => `${config.publicUrl}${PATHS.feedImage}${encodeURI(source)}`,
    }
  }

  function feedOf(version: number): Promise<BuiltFeed> {
    if (kept?.version === version) return Promise.resolve(kept)
    if (building?.version !== version) {
      const feed = shopInfo().then((shop) => buildYandexFeed(app, shop, version))
      building = { version, feed }
      feed
        .then(
          (built) => {
            if (!kept || kept.version < built.version) kept = built
          },
          () => {},
        )
        .finally(() => {
          if (building?.feed === feed) building = null
        })
    }
    return building.feed
  }

  app.get(PATHS.yandexFeed, async (request, reply) => {
    try {
      return send(request, reply, await feedOf(await readContentVersion(app.db)))
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error
      app.content.markUnreachable()
      if (kept) return send(request, reply, kept)
      return sendOutagePage(reply, config)
    }
  })
}
