// /robots.txt and /sitemap.xml, generated from the public structure records (published and not
// withdrawn: server/content/visibility.ts), and /favicon.ico for the crawlers and browsers that
// ask for it by that name.
import path from 'node:path'
import sharp from 'sharp'
import type { FastifyInstance } from 'fastify'
import { ROOT_DIR, type Config } from '../config'
import { loadSitemapRecords } from '../content/structure-store'
import { escapeHtml } from '../../src/format/escape-html'
import { isDatabaseUnavailable } from '../data/unavailable'
import { isAdminPath } from '../../src/site/paths'
import { sendOutagePage } from './outage'

// The site's icon (the pages link its SVG), as the PNG that every client of /favicon.ico reads.
const FAVICON_SVG = path.join(ROOT_DIR, 'renderer/assets/favicon.svg')
let favicon: Promise<Buffer> | null = null

export async function seoRoutes(app: FastifyInstance, { config }: { config: Config }) {
  app.get('/favicon.ico', async (_request, reply) => {
    favicon ??= sharp(FAVICON_SVG, { density: 300 })
      .resize(48, 48)
      .png()
      .toBuffer()
      .catch((error: unknown) => {
        favicon = null // try again on the next request
        throw error
      })
    reply.type('image/png').header('cache-control', 'public, max-age=86400')
    return favicon
  })

  app.get('/robots.txt', async (_request, reply) => {
    reply.type('text/plain; charset=utf-8').header('cache-control', 'public, max-age=3600')
    return [
      'User-agent: *',
      'Disallow: /api/',
      // The back office: its sign-in page is public, but no business of a search engine.
      'Disallow: /admin',
      // Yandex: ad and analytics parameters do not make new pages.
      'Clean-param: utm_source&utm_medium&utm_campaign&utm_content&utm_term&yclid&gclid',
      '',
      `Sitemap: ${config.publicUrl}/sitemap.xml`,
      '',
    ].join('\n')
  })

  app.get('/sitemap.xml', async (_request, reply) => {
    let rows: Awaited<ReturnType<typeof loadSitemapRecords>>
    try {
      rows = await loadSitemapRecords(app.db)
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error
      // A crawler comes back later (Retry-After); the site's pages take the outage path at once.
      app.content.markUnreachable()
      return sendOutagePage(reply, config)
    }
    const urls = rows
      .filter((r) => !/noindex/i.test(r.metaRobots ?? '') && !isAdminPath(r.urlFull))
      .map((r) => {
        const lastmod = r.updatedAt ? `<lastmod>${escapeHtml(r.updatedAt.slice(0, 10))}</lastmod>` : ''
        return `<url><loc>${escapeHtml(config.publicUrl + encodeURI(r.urlFull))}</loc>${lastmod}</url>`
      })
    reply.type('application/xml; charset=utf-8').header('cache-control', 'public, max-age=600')
    return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`
  })
}
