// Each screen of the catalogue's page tells the browser the query parameters it reads
// (`<meta name="vitrina-query">`, renderer/navigation.ts): a section its list's, a product its
// variant, the home page and a text page none, since the content service redirects theirs away
// (decision 045). Other pages declare their whole pageQuery. The same on Vike's path and on the
// direct path, which render the same heads.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp, type App } from '../../server/app'
import type { TestApp } from '../helpers/build-test-app'
import { DIALECTS } from '../helpers/dialects'

const DECLARED: Record<string, string | null> = {
  '/': null,
  '/politika': null,
  '/structure/': 'avail f. max min page r. sort',
  '/structure/power-tools/?sort=price': 'avail f. max min page r. sort',
  '/structure/power-tools/angle-grinder': 'v',
  '/poisk?q=дрель': 'q page',
  '/zayavka': 'oshibka tovar',
}

/** The content of the page's query meta elements (none, or one). */
function declaredQuery(html: string): string[] {
  return [...html.matchAll(/<meta name="vitrina-query" content="([^"]*)"/g)].map((m) => m[1])
}

const dialect = DIALECTS[0]
describe(`the query parameters each screen declares, on ${dialect.name}`, () => {
  let vike: TestApp
  let direct: App
  beforeAll(async () => {
    vike = await dialect.build({ PAGE_CACHE_MB: '0' }, { directRender: false })
    direct = await buildApp(vike.config, { directRender: true })
    await direct.ready()
  })
  afterAll(async () => {
    await direct?.close()
    await vike?.close()
  })

  it('are the screen’s own on both paths: none on the home and text pages', async () => {
    for (const [url, names] of Object.entries(DECLARED)) {
      // The direct path's first answer of a URL is Vike's, its second its own.
      for (const app of [vike.app, direct, direct]) {
        const res = await app.inject({ url: encodeURI(url) })
        expect(res.statusCode, url).toBe(200)
        expect(declaredQuery(res.body), url).toEqual(names === null ? [] : [names])
      }
    }
  })
})
