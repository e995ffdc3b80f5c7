// The bare baseline of `npm run bench:render` (test/bench/render.ts): the site's own page
// components (the layout, the catalogue's page and both heads) rendered with React's
// renderToString in a bare Fastify route, from page data read once at start. No Vike, no
// database, no CSP, no compression: what rendering the same markup costs at the least. Bundled by
// esbuild into dist/bench/ (its stylesheet imports dropped) and run as a process of its own:
// node dist/bench/bare-server.mjs <port> <data.json> [live]
// With `live`, each request reads its page from the database as the site does (the content
// service, DATABASE_URL from the environment) instead: what a page costs without Vike.
import fs from 'node:fs'
import Fastify from 'fastify'
import { renderToString } from 'react-dom/server'
import type { PageContext } from 'vike/types'
import { VikeReactProviderPageContext } from 'vike-react/usePageContext'
import { Head as PageHead } from '../../pages/cms/+Head'
import { Page } from '../../pages/cms/+Page'
import { Head as SiteHead } from '../../renderer/+Head'
import { Layout } from '../../renderer/+Layout'
import { readConfig } from '../../server/config/config'
import { openDatabase } from '../../server/data/db'
import { ContentService } from '../../server/site/content-service'
import type { PageData, PublicSettings, SiteInfo } from '../../src/site/types'

/** What the bench read for each measured URL (render.ts writes it). */
export interface BareData {
  readonly publicSettings: PublicSettings
  readonly pageQuery: readonly string[]
  readonly stylesheet: string
  readonly script: string
  readonly pages: Record<string, { readonly data: PageData; readonly site: SiteInfo | null }>
}

function Document({ data, stylesheet, script }: { data: PageData; stylesheet: string; script: string }) {
  const { title, description } = data.meta
  return (
    <html lang="ru">
      <head>
        <link rel="stylesheet" type="text/css" href={stylesheet} />
        <meta charSet="UTF-8" />
        <title>{title}</title>
        <meta property="og:title" content={title} />
        <meta name="viewport" content="width=device-width,initial-scale=1" />
        <PageHead />
        <SiteHead />
        {description && <meta name="description" content={description} />}
        {description && <meta property="og:description" content={description} />}
      </head>
      <body>
        <div id="root">
          <Layout>
            <Page />
          </Layout>
        </div>
        <script src={script} type="module" async />
      </body>
    </html>
  )
}

const [port, dataFile, live] = process.argv.slice(2)
const bare = JSON.parse(fs.readFileSync(dataFile, 'utf8')) as BareData
const content = live ? await liveContent() : null
const app = Fastify({ logger: false })
app.get('/*', async (request, reply) => {
  const urlPathname = request.url.split('?')[0]
  const page = content ? await readPage(content, urlPathname) : bare.pages[urlPathname]
  if (!page) return reply.code(404).send()
  const pageContext = {
    urlPathname,
    data: page.data,
    site: page.site,
    publicSettings: bare.publicSettings,
    config: { pageQuery: bare.pageQuery },
  } as unknown as PageContext
  const html = renderToString(
    <VikeReactProviderPageContext pageContext={pageContext}>
      <Document data={page.data} stylesheet={bare.stylesheet} script={bare.script} />
    </VikeReactProviderPageContext>,
  )
  return reply.type('text/html; charset=utf-8').send(`<!DOCTYPE html>${html}`)
})
async function liveContent(): Promise<ContentService> {
  const config = readConfig()
  const content = new ContentService(await openDatabase(config.database), {
    ttlSeconds: config.structureTtl,
    publicSettings: bare.publicSettings,
  })
  await content.routes()
  return content
}

async function readPage(content: ContentService, urlPathname: string) {
  const resolved = await content.pageOf(urlPathname, '')
  if (resolved.kind !== 'page') return null
  return { data: resolved.page, site: resolved.site }
}

await app.listen({ port: Number(port), host: '127.0.0.1' })
console.log('bare server listening')
