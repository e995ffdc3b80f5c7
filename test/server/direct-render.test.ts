// The catalogue's pages rendered without Vike's renderPage() (issue 34, docs/decisions/036-direct-render.md)
// are the pages Vike renders, byte for byte but the nonce: two apps on one database, one rendering
// every page through Vike, the other through the server's own path once it learned it, answer every
// kind of page alike (home, sections with their parameters, products with and without photos, text
// pages, a title full of characters HTML escapes, a page without a description) with the same
// status and headers; and the answers that are not a 200 of the catch-all still come from Vike.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp, type App } from '../../server/app'
import { ADMIN_TOKEN, AUTH, jpegImage } from '../api/helpers'
import { recordIdAt, type TestApp } from '../helpers/build-test-app'
import { DIALECTS } from '../helpers/dialects'
import { multipartBody, sendRecord } from '../helpers/multipart'

const ODD_TITLE = `Цены & «скидки» <до> "50%" 'сегодня'`

const PAGES = [
  '/',
  '/structure/',
  '/structure/power-tools/',
  '/structure/power-tools/?sort=price',
  '/structure/power-tools/angle-grinder',
  '/structure/garden/trimmer',
  '/structure/hand-tools/',
  '/politika',
  '/akcii',
  '/pusto',
  '/structure/garden/photo-saw',
]

/** Not a 200 of the catch-all: Vike answers them in both apps. */
const VIKE_ONLY = [
  '/structure/power-tools', // the other slash variant: 301
  '/no-such-page', // 404
  '/structure/power-tools/angle-grinder/', // 301
  '/structure/power-tools/?page=9', // past the last page: 404
  '/poisk?q=дрель',
  '/poisk/', // a record's path, but the search page's before the catch-all
  '/structure/garden/?page=abc', // a canonical redirect of the parameters
  '/%D0%BA%D0%B0%D1%82%D0%B0%D0%BB%D0%BE%D0%B3',
]

type Injector = Pick<App, 'inject'>

async function get(app: Injector, url: string) {
  const res = await app.inject({ url, headers: { 'user-agent': 'Mozilla/5.0 test' } })
  const nonce = /'nonce-([^']+)'/.exec(String(res.headers['content-security-policy'] ?? ''))?.[1]
  const headers = { ...res.headers }
  for (const name of ['date', 'etag', 'last-modified', 'content-length', 'x-vitrina-cache', 'connection']) {
    delete headers[name]
  }
  const normalise = (text: string) => (nonce ? text.split(nonce).join('NONCE') : text)
  return {
    status: res.statusCode,
    headers: JSON.parse(normalise(JSON.stringify(headers))) as Record<string, unknown>,
    body: normalise(res.body),
  }
}

for (const dialect of DIALECTS) {
  describe.runIf(dialect.available)(`pages rendered without Vike on ${dialect.name}`, () => {
    let vike: TestApp
    let direct: App
    beforeAll(async () => {
      // Every request renders: no page cache in either app.
      vike = await dialect.build({ ADMIN_TOKEN, PAGE_CACHE_MB: '0' }, { directRender: false })
      const idAt = async (url: string) => recordIdAt(vike.app.db, url)
      const home = await idAt('/')
      const text = await sendRecord(vike.app, AUTH, 'POST', '/api/structure', {
        parentId: home,
        typeId: 'page',
        title: ODD_TITLE,
        urlFull: '/akcii',
        content: `${ODD_TITLE}: до конца месяца.`,
      })
      expect(text.statusCode, text.body).toBe(201)
      const body = multipartBody(
        {
          data: JSON.stringify({
            parentId: await idAt('/structure/garden/'),
            typeId: 'product',
            title: 'Пила с фото',
            urlFull: '/structure/garden/photo-saw',
            metaDescription: 'Пила & «ножовка» <с фото>',
            product: { price: 1234 },
          }),
        },
        [{ name: 'product.image', filename: 'saw.jpg', bytes: await jpegImage(640, 480) }],
      )
      const product = await vike.app.inject({
        method: 'POST',
        url: '/api/structure',
        payload: body.payload,
        headers: { ...body.headers, ...AUTH },
      })
      expect(product.statusCode, product.body).toBe(201)
      // A page with no text: no description, so neither description tag.
      const empty = await sendRecord(vike.app, AUTH, 'POST', '/api/structure', {
        parentId: home,
        typeId: 'page',
        title: 'Пустая страница',
        urlFull: '/pusto',
      })
      expect(empty.statusCode, empty.body).toBe(201)
      // A record at a path Vike routes to another page: the API may refuse it; if not, still the search.
      await sendRecord(vike.app, AUTH, 'POST', '/api/structure', {
        parentId: home,
        typeId: 'page',
        title: 'Не поиск',
        urlFull: '/poisk/',
      })
      // Built after the writes: it starts with them, no wait for its once-a-second look at the database.
      direct = await buildApp(vike.config, { directRender: true })
      await direct.ready()
    })
    afterAll(async () => {
      await direct?.close()
      await vike?.close()
    })

    it('answers every kind of catalogue page as Vike does, once it rendered one through Vike', async () => {
      for (const url of PAGES) {
        const expected = await get(vike.app, url)
        expect(expected.status, url).toBe(200)
        expect(await get(direct, url), url).toEqual(expected)
        // The second answer too: by then the page is learned, whatever the first was.
        expect(await get(direct, url), url).toEqual(expected)
      }
      expect(vike.app.pages.renderings.direct).toBe(0)
      // Vike rendered the first page only; every later one went the server's own way.
      expect(direct.pages.renderings).toEqual({ vike: 1, direct: PAGES.length * 2 - 1 })
      expect((await get(direct, '/pusto')).body).not.toContain('name="description"')
      expect((await get(direct, '/akcii')).body).toContain(
        '<title>Цены &amp; «скидки» &lt;до&gt; &quot;50%&quot; &#039;сегодня&#039;</title>',
      )
    })

    it('leaves redirects, missing pages and the other pages to Vike, with the same answers', async () => {
      await get(direct, '/')
      const before = direct.pages.renderings.vike
      for (const url of VIKE_ONLY) {
        expect(await get(direct, url), url).toEqual(await get(vike.app, url))
      }
      expect(direct.pages.renderings.vike - before).toBe(VIKE_ONLY.length)
      expect((await get(direct, '/poisk/')).body).not.toContain('<h1>Не поиск</h1>')
      // The lead form page: Vike's, made anew for each visitor.
      const form = await direct.inject({ url: '/zayavka' })
      expect(form.statusCode).toBe(200)
      expect(direct.pages.renderings.vike - before).toBe(VIKE_ONLY.length + 2)
    })
  })
}
