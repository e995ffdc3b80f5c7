// A write drops only the kept pages it changed (issue 34, docs/decisions/033-selective-invalidation.md),
// on both databases and across two processes. After every kind of content write (the API, a batch
// import, a price list, the back office's move and order, «Товары» edits and bulk actions, hide,
// withdraw, delete, a featured flag, a section renamed, a 1C exchange) no page a visitor asks for
// shows what it showed before the commit: each is the same as a rendering made anew. And a price change of one product keeps every page that
// does not show that product in the page cache (`x-vitrina-cache: hit`).
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp, type App } from '../../server/app'
import { bumpContentVersion } from '../../server/data/db'
import { writeTransaction } from '../../server/data/write-transaction'
import { ADMIN_TOKEN, AUTH } from '../api/helpers'
import { decodeEntities, recordIdAt, type TestApp } from '../helpers/build-test-app'
import { DIALECTS } from '../helpers/dialects'
import { sendRecord, uploadPriceList } from '../helpers/multipart'
import { EXCHANGE_ENV, OneCClient, importXml, injectTransport, offersXml } from '../helpers/one-c'

/** The pages kept before each write: the home page, sections (one sorted), products, a document. */
const PAGES = [
  '/',
  '/structure/',
  '/structure/power-tools/',
  '/structure/power-tools/?sort=price',
  '/structure/power-tools/angle-grinder',
  '/structure/power-tools/screwdriver',
  '/structure/garden/',
  '/structure/garden/trimmer',
  '/structure/hand-tools/',
  '/structure/hand-tools/hammer',
  '/politika',
]

/** An owner's cookie (live or not): the page is rendered anew, never taken from the cache. */
const UNCACHED = { cookie: 'vitrina_admin=stale-check' }

type Injector = Pick<App, 'inject'>

async function get(app: Injector, url: string, headers: Record<string, string> = {}) {
  const res = await app.inject({ url, headers: { 'user-agent': 'Mozilla/5.0 test', ...headers } })
  // Each rendering has its own CSP nonce; everything else must be the same.
  const body = decodeEntities(res.body).replace(/nonce-[\w+/=-]+|nonce="[^"]*"/g, 'nonce')
  return { status: res.statusCode, cache: res.headers['x-vitrina-cache'], body }
}

/** Every page as a visitor gets it now is the page as it renders anew (which also keeps it again). */
async function expectNothingStale(app: Injector, when: string) {
  for (const url of PAGES) {
    const shown = await get(app, url)
    const fresh = await get(app, url, UNCACHED)
    expect({ status: shown.status, body: shown.body }, `${url} after ${when}`).toEqual({
      status: fresh.status,
      body: fresh.body,
    })
  }
}

/** Every page in the page cache: asked until it is a hit. */
async function warm(app: Injector) {
  for (const url of PAGES) {
    await get(app, url)
    const again = await get(app, url)
    // A page that answers 404 (a hidden product) is never kept.
    if (again.status !== 404) expect(again.cache, url).toBe('hit')
  }
}

/** What the first request of each page after a write found: a kept page or a new rendering. */
async function cacheStates(app: Injector, urls: readonly string[]) {
  const states: Record<string, string | undefined> = {}
  for (const url of urls) states[url] = String((await get(app, url)).cache)
  return states
}

const hits = (urls: readonly string[]) => Object.fromEntries(urls.map((url) => [url, 'hit']))

for (const dialect of DIALECTS) {
  describe.runIf(dialect.available)(`no stale page after a write on ${dialect.name}`, () => {
    let t: TestApp
    beforeAll(async () => {
      t = await dialect.build({ ADMIN_TOKEN, ...EXCHANGE_ENV }, { exchangeStepMs: 1 })
    })
    afterAll(async () => {
      await t?.close()
    })

    const idAt = async (url: string) => recordIdAt(t.app.db, url)
    const multipart = (method: 'POST' | 'PATCH', url: string, data: unknown) =>
      sendRecord(t.app, AUTH, method, url, data)
    /** Warms every page, runs the write, checks that no page is stale; returns the write's answer. */
    async function write(name: string, run: () => Promise<{ statusCode: number; body: string }>) {
      await warm(t.app)
      const res = await run()
      expect(res.statusCode, res.body).toBeLessThan(300)
      await expectNothingStale(t.app, name)
      return res
    }

    it('a price changed by the API drops that product and its section, and keeps every other page', async () => {
      await warm(t.app)
      const id = await idAt('/structure/power-tools/angle-grinder')
      const res = await multipart('PATCH', '/api/product', { structureId: id, price: 5432 })
      expect(res.statusCode, res.body).toBe(200)
      const others = PAGES.filter((url) => !url.startsWith('/structure/power-tools/'))
      const states = await cacheStates(t.app, [...others, '/structure/power-tools/screwdriver'])
      expect(states).toEqual(hits([...others, '/structure/power-tools/screwdriver']))
      expect(await cacheStates(t.app, ['/structure/power-tools/angle-grinder', '/structure/power-tools/'])).toEqual({
        '/structure/power-tools/angle-grinder': 'miss',
        '/structure/power-tools/': 'miss',
      })
      expect((await get(t.app, '/structure/power-tools/angle-grinder')).body).toMatch(/5[\s\u00a0]432/)
      await expectNothingStale(t.app, 'a price change')
    })

    it("a featured product's price drops the home page too", async () => {
      await warm(t.app)
      const id = await idAt('/structure/power-tools/screwdriver')
      const res = await multipart('PATCH', '/api/product', { structureId: id, price: 6543 })
      expect(res.statusCode, res.body).toBe(200)
      expect(await cacheStates(t.app, ['/', '/structure/garden/trimmer'])).toEqual({
        '/': 'miss',
        '/structure/garden/trimmer': 'hit',
      })
      expect((await get(t.app, '/')).body).toMatch(/6[\s\u00a0]543/)
      await expectNothingStale(t.app, 'a featured price change')
    })

    it('a product made featured, and no longer', async () => {
      const id = await idAt('/structure/garden/trimmer')
      await write('featured on', () => multipart('PATCH', '/api/product', { structureId: id, featured: true }))
      await write('featured off', () => multipart('PATCH', '/api/product', { structureId: id, featured: false }))
    })

    it('a product created and deleted by the API', async () => {
      const garden = await idAt('/structure/garden/')
      await write('a create', () =>
        multipart('POST', '/api/structure', {
          parentId: garden,
          typeId: 'product',
          title: 'Грабли веерные',
          urlFull: '/structure/garden/rake',
          product: { article: 'ГР-1', price: 900 },
        }),
      )
      expect((await get(t.app, '/structure/garden/')).body).toContain('Грабли веерные')
      const id = await idAt('/structure/garden/rake')
      await write('a delete', () => t.app.inject({ method: 'DELETE', url: `/api/structure?id=${id}`, headers: AUTH }))
      expect((await get(t.app, '/structure/garden/')).body).not.toContain('Грабли веерные')
    })

    it('a content import batch', async () => {
      const hand = await idAt('/structure/hand-tools/')
      await write('a batch', () =>
        multipart('POST', '/api/batch/structure', {
          records: [
            {
              typeId: 'product',
              title: 'Стамеска 16 мм',
              urlFull: '/structure/hand-tools/chisel',
              parentId: hand,
              product: { article: 'СТ-16', price: 450 },
            },
          ],
        }),
      )
      expect((await get(t.app, '/structure/hand-tools/')).body).toContain('Стамеска 16 мм')
    })

    it('a price list applied', async () => {
      const file = Buffer.from('Артикул;Наименование;Цена\nСТ-16;Стамеска 16 мм;470\n')
      const { confirm } = (await uploadPriceList(t.app, AUTH, file)).json().data
      await write('a price list', () => uploadPriceList(t.app, AUTH, file, confirm))
      expect((await get(t.app, '/structure/hand-tools/')).body).toMatch(/470/)
    })

    it('the back office: a move to another section, a place among siblings', async () => {
      const id = await idAt('/structure/hand-tools/chisel')
      const garden = await idAt('/structure/garden/')
      await write('a move', () =>
        t.app.inject({
          method: 'POST',
          url: `/api/admin/content/${id}/move`,
          headers: AUTH,
          payload: { parentId: garden, keepUrl: true },
        }),
      )
      expect((await get(t.app, '/structure/garden/')).body).toContain('Стамеска 16 мм')
      await write('an order', () =>
        t.app.inject({
          method: 'POST',
          url: `/api/admin/content/${id}/order`,
          headers: AUTH,
          payload: { direction: 'up' },
        }),
      )
    })

    it('«Товары»: a price edited in place, prices raised and products hidden by a bulk action', async () => {
      const id = await idAt('/structure/power-tools/angle-grinder')
      const hammer = await idAt('/structure/hand-tools/hammer')
      await write('a price edited in place', () =>
        t.app.inject({ method: 'PATCH', url: `/api/admin/products/${id}`, headers: AUTH, payload: { price: 5555 } }),
      )
      const act = (action: Record<string, unknown>) =>
        t.app.inject({
          method: 'POST',
          url: '/api/admin/products/actions',
          headers: AUTH,
          payload: { operation: randomUUID(), ids: [id, hammer], action },
        })
      await write('a bulk price change', () => act({ kind: 'price', percent: 10, keepOldPrice: true }))
      await write('a bulk hide', () => act({ kind: 'hide' }))
      await write('a bulk publish', () => act({ kind: 'publish' }))
    })

    it('a product renamed, hidden, shown, withdrawn', async () => {
      const id = await idAt('/structure/garden/trimmer')
      await write('a rename', () => multipart('PATCH', '/api/structure', { id, title: 'Триммер сетевой' }))
      expect((await get(t.app, '/structure/garden/')).body).toContain('Триммер сетевой')
      await write('a hide', () => multipart('PATCH', '/api/structure', { id, published: false }))
      expect((await get(t.app, '/structure/garden/trimmer')).status).toBe(404)
      await write('a show', () => multipart('PATCH', '/api/structure', { id, published: true }))
      await write('a withdrawal', () => multipart('PATCH', '/api/structure', { id, status: 410 }))
      expect((await get(t.app, '/structure/garden/trimmer')).status).toBe(410)
      await write('a return', () => multipart('PATCH', '/api/structure', { id, status: null }))
    })

    it('a section renamed, and its text changed', async () => {
      const id = await idAt('/structure/garden/')
      await write('a section renamed', () => multipart('PATCH', '/api/structure', { id, title: 'Сад и огород' }))
      // The menu of every page shows it.
      expect((await get(t.app, '/structure/hand-tools/hammer')).body).toContain('Сад и огород')
      await write('a section text', () => multipart('PATCH', '/api/structure', { id, content: 'Всё для сада.' }))
      expect((await get(t.app, '/structure/garden/')).body).toContain('Всё для сада.')
    })

    it('a 1C exchange: the catalogue, then prices alone', async () => {
      const enabled = await t.app.inject({
        method: 'PUT',
        url: '/api/admin/exchange',
        headers: AUTH,
        payload: { enabled: true, priceType: 'Розничная', zeroStock: 'out_of_stock' },
      })
      expect(enabled.statusCode, enabled.body).toBe(200)
      const client = new OneCClient(injectTransport(t.app))
      const priceTypes = [{ id: 'pt-retail', name: 'Розничная' }]
      await warm(t.app)
      await client.exchange({
        'import.xml': importXml({
          groups: [{ id: 'g-pumps', name: 'Насосы' }],
          products: [{ id: 'prod-pump', name: 'Насос дренажный', article: 'НД-1', groups: ['g-pumps'] }],
        }),
        'offers.xml': offersXml({
          priceTypes,
          offers: [{ id: 'prod-pump', prices: { 'pt-retail': 3100 }, quantity: 2 }],
        }),
      })
      await expectNothingStale(t.app, 'a 1C exchange')
      const pump = (
        await t.app.db
          .selectFrom('structure')
          .select('urlFull')
          .where('title', '=', 'Насос дренажный')
          .executeTakeFirstOrThrow()
      ).urlFull
      PAGES.push(pump)
      try {
        await warm(t.app)
        await client.exchange({
          'offers.xml': offersXml({
            priceTypes,
            offers: [{ id: 'prod-pump', prices: { 'pt-retail': 3300 }, quantity: 1 }],
          }),
        })
        expect((await get(t.app, pump)).body).toMatch(/3[\s\u00a0]300/)
        // Prices alone: a page that does not show the pump is still kept.
        expect(await cacheStates(t.app, ['/structure/hand-tools/hammer'])).toEqual(
          hits(['/structure/hand-tools/hammer']),
        )
        await expectNothingStale(t.app, 'a 1C price exchange')
      } finally {
        PAGES.pop()
      }
    })

    it('another process drops the same pages within the version check, and keeps the others', async () => {
      const second: App = await buildApp(t.config)
      await second.ready()
      try {
        await warm(second)
        const id = await idAt('/structure/power-tools/angle-grinder')
        const res = await multipart('PATCH', '/api/product', { structureId: id, price: 4321 })
        expect(res.statusCode, res.body).toBe(200)
        // The second process notices at its next version check (at most a second).
        let shown = ''
        for (let i = 0; i < 60 && !/4[\s\u00a0]321/.test(shown); i++) {
          await new Promise((resolve) => setTimeout(resolve, 100))
          shown = (await get(second, '/structure/power-tools/angle-grinder')).body
        }
        expect(shown).toMatch(/4[\s\u00a0]321/)
        const others = PAGES.filter((url) => !url.startsWith('/structure/power-tools/'))
        expect(await cacheStates(second, others)).toEqual(hits(others))
        await expectNothingStale(second, "another process's price change")
        // And a write of every page (a section renamed) drops every page there too.
        await warm(second)
        const garden = await idAt('/structure/garden/')
        await multipart('PATCH', '/api/structure', { id: garden, title: 'Садовая техника' })
        let menu = ''
        for (let i = 0; i < 60 && !menu.includes('Садовая техника'); i++) {
          await new Promise((resolve) => setTimeout(resolve, 100))
          menu = (await get(second, '/structure/hand-tools/hammer')).body
        }
        await expectNothingStale(second, "another process's section rename")
        // A version made outside the door (a script writing straight into the database) has no
        // record of what it changed: the other process drops every page.
        await warm(second)
        const hammer = await idAt('/structure/hand-tools/hammer')
        await writeTransaction(t.app.db, async (trx) => {
          await trx.updateTable('product').set({ price: 123_400 }).where('structureId', '=', hammer).execute()
          await bumpContentVersion(trx)
        })
        let price = ''
        for (let i = 0; i < 60 && !/1[\s\u00a0]234/.test(price); i++) {
          await new Promise((resolve) => setTimeout(resolve, 100))
          price = (await get(second, '/structure/hand-tools/hammer')).body
        }
        expect(price).toMatch(/1[\s\u00a0]234/)
        await expectNothingStale(second, 'a version made outside the door')
      } finally {
        await second.close()
      }
    })
  })
}
