// /robots.txt and /sitemap.xml, generated from the published structure records.
import type { FastifyInstance } from 'fastify'
import type { Config } from '../config'
import { loadSitemapRecords } from '../data/structure-store'

const escapeXml = (s: string) =>
  s.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!)

export async function seoRoutes(app: FastifyInstance, { config }: { config: Config }) {
  app.get('/robots.txt', async (_request, reply) => {
    reply.type('text/plain; charset=utf-8').header('cache-control', 'public, max-age=3600')
    return [
      'User-agent: *',
      'Disallow: /api/',
      // Yandex: ad and analytics parameters do not make new pages.
      'Clean-param: utm_source&utm_medium&utm_campaign&utm_content&utm_term&yclid&gclid',
      '',
      `Sitemap: ${config.publicUrl}/sitemap.xml`,
      '',
    ].join('\n')
  })

  app.get('/sitemap.xml', async (_request, reply) => {
    const rows = await loadSitemapRecords(app.db)
    const urls = rows
      .filter((r) => (r.status === null || r.status === 200) && !/noindex/i.test(r.metaRobots ?? ''))
      .map((r) => {
        const lastmod = r.updatedAt ? `<lastmod>${escapeXml(r.updatedAt.slice(0, 10))}</lastmod>` : ''
        return `<url><loc>${escapeXml(config.publicUrl + encodeURI(r.urlFull))}</loc>${lastmod}</url>`
      })
    reply.type('application/xml; charset=utf-8').header('cache-control', 'public, max-age=600')
    return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`
  })
}
