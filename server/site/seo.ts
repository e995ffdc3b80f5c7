// /robots.txt and /sitemap.xml, generated from the public structure records (published and not
// withdrawn: server/content/visibility.ts), and /favicon.ico for the crawlers and browsers that
// ask for it by that name.
import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import { ROOT_DIR, type Config } from '../config/config'
import { loadSharp } from '../media/sharp'
import { sitemapRoutes } from './sitemap'
import { API_PREFIX, PATHS } from '../../src/site/paths'

// The site's icon as the PNG that every client of /favicon.ico reads: the public pages link no icon,
// so browsers take this one (docs/decisions/035-lighter-html.md).
const FAVICON_SVG = path.join(ROOT_DIR, 'renderer/assets/favicon.svg')
let favicon: Promise<Buffer> | null = null

export async function seoRoutes(
  app: FastifyInstance,
  { config, sitemapUrlsPerFile }: { config: Config; sitemapUrlsPerFile?: number },
) {
  app.get('/favicon.ico', async (_request, reply) => {
    favicon ??= loadSharp()
      .then((sharp) => sharp(FAVICON_SVG, { density: 300 }).resize(48, 48).png().toBuffer())
      .catch((error: unknown) => {
        favicon = null // try again on the next request
        throw error
      })
    reply.type('image/png').header('cache-control', 'public, max-age=86400')
    return favicon
  })

  app.get(PATHS.robots, async (_request, reply) => {
    reply.type('text/plain; charset=utf-8').header('cache-control', 'public, max-age=3600')
    return [
      'User-agent: *',
      `Disallow: ${API_PREFIX}/`,
      // The back office: its sign-in page is public, but no business of a search engine.
      `Disallow: ${PATHS.admin}`,
      // Yandex: ad and analytics parameters do not make new pages.
      'Clean-param: utm_source&utm_medium&utm_campaign&utm_content&utm_term&yclid&gclid',
      '',
      `Sitemap: ${app.settings.current().publicUrl}${PATHS.sitemap}`,
      '',
    ].join('\n')
  })

  await app.register(sitemapRoutes, { config, urlsPerFile: sitemapUrlsPerFile })
}
