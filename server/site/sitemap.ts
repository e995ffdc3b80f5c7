// /sitemap.xml from the public structure records (published and not withdrawn:
// server/content/visibility.ts), streamed from the database in batches so memory stays flat
// whatever the catalogue's size. Past `urlsPerFile` URLs (the protocol's limit, 50,000) it becomes
// a sitemap index of /sitemap-1.xml, /sitemap-2.xml, … (https://www.sitemaps.org/protocol.html#index).
// Only records' own URLs are listed: a section's page 2 and its sorted or filtered lists never are.
import { Readable } from 'node:stream'
import type { FastifyInstance, FastifyReply } from 'fastify'
import type { Config } from '../config/config'
import { countPublicRecords, loadSitemapBatch, sitemapStartId } from '../catalogue/products/listing-store'
import { escapeHtml } from '../../src/format/escape-html'
import { isDatabaseUnavailable } from '../data/unavailable'
import { isAdminPath, PATHS } from '../../src/site/paths'
import { sendOutagePage } from '../http/outage'

/** URLs in one sitemap file: the protocol's limit */
export const SITEMAP_URLS_PER_FILE = 50_000
/** Rows read from the database at a time */
const BATCH = 1000
const XML = 'application/xml; charset=utf-8'
const HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n'

export async function sitemapRoutes(
  app: FastifyInstance,
  { config, urlsPerFile = SITEMAP_URLS_PER_FILE }: { config: Config; urlsPerFile?: number },
) {
  /** The first read failed because the database is away: the outage page; else rethrown. */
  function outage(reply: FastifyReply, error: unknown) {
    if (!isDatabaseUnavailable(error)) throw error
    // A crawler comes back later (Retry-After); the site's pages take the outage path at once.
    app.content.markUnreachable()
    return sendOutagePage(reply, config)
  }

  /** `<url>` entries of up to `limit` public records from `firstId` on, in id order. */
  async function* urls(firstId: number, limit: number): AsyncGenerator<string> {
    let afterId = firstId - 1
    let left = limit
    while (left > 0) {
      const rows = await loadSitemapBatch(app.db, afterId, Math.min(BATCH, left))
      if (rows.length === 0) return
      left -= rows.length
      afterId = rows[rows.length - 1].id
      let chunk = ''
      for (const r of rows) {
        if (/noindex/i.test(r.metaRobots ?? '') || isAdminPath(r.urlFull)) continue
        const lastmod = r.updatedAt ? `<lastmod>${escapeHtml(r.updatedAt.slice(0, 10))}</lastmod>` : ''
        chunk += `<url><loc>${escapeHtml(app.settings.current().publicUrl + encodeURI(r.urlFull))}</loc>${lastmod}</url>\n`
      }
      yield chunk
    }
  }

  function sendUrlSet(reply: FastifyReply, firstId: number, limit: number) {
    async function* document() {
      yield `${HEAD}<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n`
      yield* urls(firstId, limit)
      yield '</urlset>\n'
    }
    reply.type(XML).header('cache-control', 'public, max-age=600')
    return reply.send(Readable.from(document()))
  }

  app.get(PATHS.sitemap, async (_request, reply) => {
    let total: number
    try {
      total = await countPublicRecords(app.db)
    } catch (error) {
      return outage(reply, error)
    }
    if (total <= urlsPerFile) return sendUrlSet(reply, 1, urlsPerFile)
    const files = Math.ceil(total / urlsPerFile)
    const entries = Array.from(
      { length: files },
      (_, i) =>
        `<sitemap><loc>${escapeHtml(`${app.settings.current().publicUrl}/sitemap-${i + 1}.xml`)}</loc></sitemap>`,
    )
    reply.type(XML).header('cache-control', 'public, max-age=600')
    return `${HEAD}<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries.join('\n')}\n</sitemapindex>\n`
  })

  // /sitemap-<n>.xml: the n-th file of the index. Any other /sitemap-… path is a page like any other.
  app.get('/sitemap-:file', async (request, reply) => {
    const file = (request.params as { file: string }).file
    const n = /^([1-9]\d{0,5})\.xml$/.exec(file)?.[1]
    if (n === undefined) return app.pages.answer(request, reply)
    let firstId: number | null
    try {
      firstId = await sitemapStartId(app.db, (Number(n) - 1) * urlsPerFile)
    } catch (error) {
      return outage(reply, error)
    }
    // Past the last file, or a site small enough for one sitemap: no such file.
    if (firstId === null || (Number(n) === 1 && (await countPublicRecords(app.db)) <= urlsPerFile)) {
      return app.pages.answer(request, reply)
    }
    return sendUrlSet(reply, firstId, urlsPerFile)
  })
}
