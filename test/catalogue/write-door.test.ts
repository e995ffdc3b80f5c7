// Every write route goes through the one write door (server/catalogue/write-door.ts), on both
// databases: for each, the four effects a visitor or a crawler notices. The content version moves
// (other processes drop their caches), the page it changed shows the change at once though it was
// in the page cache, search finds what was written (and no longer what was deleted), and IndexNow
// has every public URL it changed queued: a move both the old URL and the new, a hidden or deleted
// record its old one, and their sections. The writers walked: the API, the content import, the back
// office's tree, the price list, «Товары»'s bulk move, the 1C exchange and the operator's details.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readContentVersion } from '../../server/data/db'
import { ADMIN_TOKEN, AUTH } from '../api/helpers'
import { decodeEntities, recordIdAt, type TestApp } from '../helpers/build-test-app'
import { DIALECTS } from '../helpers/dialects'
import { sendRecord, uploadPriceList } from '../helpers/multipart'
import { enableExchange, EXCHANGE_ENV, importXml, injectTransport, OneCClient } from '../helpers/one-c'

const PUBLIC_URL = 'https://shop.example.ru'

for (const dialect of DIALECTS) {
  describe.runIf(dialect.available)(`the write door on ${dialect.name}`, () => {
    let t: TestApp
    beforeAll(async () => {
      // IndexNow on, its endpoint a closed port: the queued URLs stay in the outbox to be read.
      t = await dialect.build({
        ADMIN_TOKEN,
        ...EXCHANGE_ENV,
        PUBLIC_URL,
        INDEXNOW: 'on',
        INDEXNOW_KEY: 'test-door-key-0123',
        INDEXNOW_URL: 'http://127.0.0.1:9/indexnow',
      })
      await enableExchange(t.app)
    })
    afterAll(async () => {
      await t?.close()
    })

    const page = async (url: string) => {
      const res = await t.app.inject({ url, headers: { 'user-agent': 'Mozilla/5.0 test' } })
      return { status: res.statusCode, cache: res.headers['x-vitrina-cache'], text: decodeEntities(res.body) }
    }
    const idAt = async (url: string) => recordIdAt(t.app.db, url)
    const multipart = (method: 'POST' | 'PATCH', url: string, data: unknown) =>
      sendRecord(t.app, AUTH, method, url, data)
    const found = async (q: string) => (await page(`/poisk?q=${encodeURIComponent(q)}`)).text

    /**
     * Runs a write and returns what changed: whether the version moved, and the IndexNow URLs it
     * queued (paths).
     */
    async function write(run: () => Promise<{ statusCode: number; body: string }>) {
      const before = await readContentVersion(t.app.db)
      // The outbox emptied first: a URL already waiting is not queued twice.
      await t.app.db.deleteFrom('indexNowUrl').execute()
      const res = await run()
      expect(res.statusCode, res.body).toBeLessThan(300)
      const queued = await t.app.db.selectFrom('indexNowUrl').select('url').execute()
      return {
        bumped: (await readContentVersion(t.app.db)) > before,
        urls: queued.map((row) => decodeURI(row.url.slice(PUBLIC_URL.length))).sort(),
      }
    }

    /** The page is in the page cache before the write, so "shows the change" means it was dropped. */
    async function cached(url: string) {
      await page(url)
      expect((await page(url)).cache).toBe('hit')
    }

    it('a record written by the API (create, then update)', async () => {
      await cached('/structure/power-tools/')
      const parentId = await idAt('/structure/power-tools/')
      const created = await write(() =>
        multipart('POST', '/api/structure', {
          parentId,
          typeId: 'product',
          title: 'Гайковёрт дверьный',
          urlFull: '/structure/power-tools/door-wrench',
          product: { article: 'ДВ-1', price: 4100 },
        }),
      )
      expect(created.bumped).toBe(true)
      expect((await page('/structure/power-tools/')).text).toContain('Гайковёрт дверьный')
      expect(await found('дверьный')).toContain('/structure/power-tools/door-wrench')
      expect(created.urls).toEqual(['/structure/power-tools/', '/structure/power-tools/door-wrench'])

      await cached('/structure/power-tools/door-wrench')
      const id = await idAt('/structure/power-tools/door-wrench')
      const updated = await write(() => multipart('PATCH', '/api/structure', { id, title: 'Гайковёрт оконный' }))
      expect(updated.bumped).toBe(true)
      expect((await page('/structure/power-tools/door-wrench')).text).toContain('Гайковёрт оконный')
      expect(await found('оконный')).toContain('/structure/power-tools/door-wrench')
      expect(await found('дверьный')).not.toContain('/structure/power-tools/door-wrench')
      expect(updated.urls).toEqual(['/structure/power-tools/', '/structure/power-tools/door-wrench'])
    })

    it('a part written on its own (a product by its structureId)', async () => {
      const url = '/structure/power-tools/door-wrench'
      await cached(url)
      const structureId = await idAt(url)
      const changed = await write(() => multipart('PATCH', '/api/product', { structureId, vendor: 'Зубрилка' }))
      expect(changed.bumped).toBe(true)
      expect((await page(url)).text).toContain('Зубрилка')
      expect(await found('зубрилка')).toContain(url)
      expect(changed.urls).toEqual(['/structure/power-tools/', url])
    })

    it('a content import batch', async () => {
      await cached('/structure/')
      const batch = await write(() =>
        multipart('POST', '/api/batch/structure', {
          records: [
            { typeId: 'section', title: 'Пакетный раздел', urlFull: '/structure/batch/', parentId: 2 },
            {
              typeId: 'product',
              title: 'Пакетный шуруповёрт',
              urlFull: '/structure/batch/one',
              parent: 0,
              product: { article: 'ПК-1', price: 3000 },
            },
          ],
        }),
      )
      expect(batch.bumped).toBe(true)
      expect((await page('/structure/')).text).toContain('Пакетный раздел')
      expect(await found('пакетный шуруповёрт')).toContain('/structure/batch/one')
      expect(batch.urls).toEqual(['/structure/', '/structure/batch/', '/structure/batch/one'])
    })

    it('«Перенести» with a new URL: the old URL and the new one, and both sections', async () => {
      await cached('/structure/garden/')
      const id = await idAt('/structure/batch/one')
      const garden = await idAt('/structure/garden/')
      const moved = await write(() =>
        t.app.inject({
          method: 'POST',
          url: `/api/admin/content/${id}/move`,
          headers: AUTH,
          payload: { parentId: garden, keepUrl: false },
        }),
      )
      expect(moved.bumped).toBe(true)
      expect((await page('/structure/garden/')).text).toContain('Пакетный шуруповёрт')
      expect(await found('пакетный шуруповёрт')).toContain('/structure/garden/one')
      expect(moved.urls).toEqual([
        '/structure/batch/',
        '/structure/batch/one',
        '/structure/garden/',
        '/structure/garden/one',
      ])
    })

    it('a place among siblings', async () => {
      await cached('/structure/garden/')
      const id = await idAt('/structure/garden/one')
      const ordered = await write(() =>
        t.app.inject({
          method: 'POST',
          url: `/api/admin/content/${id}/order`,
          headers: AUTH,
          payload: { direction: 'up' },
        }),
      )
      expect(ordered.bumped).toBe(true)
      expect((await page('/structure/garden/')).cache).not.toBe('hit')
      expect(ordered.urls).toContain('/structure/garden/')
    })

    it('a section hidden: the URLs of everything under it, as they leave the site', async () => {
      await cached('/structure/batch/')
      const id = await idAt('/structure/batch/')
      await multipart('POST', '/api/structure', {
        parentId: id,
        typeId: 'product',
        title: 'Скрытый лобзик',
        urlFull: '/structure/batch/hidden',
      })
      const hidden = await write(() => multipart('PATCH', '/api/structure', { id, published: false }))
      expect(hidden.bumped).toBe(true)
      expect((await page('/structure/batch/')).status).toBe(404)
      expect((await page('/structure/batch/hidden')).status).toBe(404)
      expect(await found('скрытый лобзик')).not.toContain('/structure/batch/hidden')
      expect(hidden.urls).toEqual(['/structure/', '/structure/batch/', '/structure/batch/hidden'])
    })

    it('a delete: its URL, now 410, and its section', async () => {
      const url = '/structure/power-tools/door-wrench'
      await cached('/structure/power-tools/')
      const id = await idAt(url)
      const deleted = await write(() =>
        t.app.inject({ method: 'DELETE', url: `/api/structure?id=${id}`, headers: AUTH }),
      )
      expect(deleted.bumped).toBe(true)
      expect((await page(url)).status).toBe(410)
      expect((await page('/structure/power-tools/')).text).not.toContain('Гайковёрт оконный')
      expect(await found('оконный')).not.toContain(url)
      expect(deleted.urls).toEqual(['/structure/power-tools/', url])
    })

    it('a price list applied', async () => {
      const url = '/structure/power-tools/screwdriver'
      await cached(url)
      const file = Buffer.from('Артикул;Наименование;Цена\nЭИ-1002;Шуруповёрт прайсовый;7777\n')
      const upload = (confirm?: string) => uploadPriceList(t.app, AUTH, file, confirm)
      const { confirm } = (await upload()).json().data
      const applied = await write(() => upload(confirm))
      expect(applied.bumped).toBe(true)
      expect((await page(url)).text).toMatch(/7[\s\u00a0]777/)
      expect(await found('прайсовый')).toContain(url)
      expect(applied.urls).toEqual(['/structure/power-tools/', url])
    })

    it('«Товары» moving products: both URLs of each, and both sections', async () => {
      const from = '/structure/power-tools/'
      const to = '/structure/garden/'
      const urls = ['/structure/power-tools/jigsaw', '/structure/power-tools/angle-grinder']
      await cached(to)
      const ids = await Promise.all(urls.map(idAt))
      const sectionId = await idAt(to)
      const moved = await write(() =>
        t.app.inject({
          method: 'POST',
          url: '/api/admin/products/actions',
          headers: AUTH,
          payload: { operation: 'door-move-0001', ids, action: { kind: 'move', sectionId } },
        }),
      )
      expect(moved.bumped).toBe(true)
      const newUrls = urls.map((url) => url.replace(from, to))
      expect((await page(to)).text).toContain(newUrls[0])
      expect((await page(urls[0])).status).toBe(301)
      expect(moved.urls).toEqual([from, to, ...urls, ...newUrls].sort())
    })

    it('the 1C exchange: a new product and its section', async () => {
      const client = new OneCClient(injectTransport(t.app))
      await cached('/structure/')
      const made = await write(async () => {
        const answers = await client.exchange({
          'import.xml': importXml({
            groups: [{ id: 'door-g', name: 'Дверной раздел' }],
            products: [{ id: 'door-p', name: 'Петля дверная', article: 'ДП-1', groups: ['door-g'] }],
          }),
        })
        return { statusCode: answers[0].lines[0] === 'success' ? 200 : 500, body: answers[0].body }
      })
      expect(made.bumped).toBe(true)
      const urlOf = async (externalId: string) =>
        (
          await t.app.db
            .selectFrom('exchangeRecord')
            .innerJoin('structure', 'structure.id', 'exchangeRecord.structureId')
            .select('structure.urlFull')
            .where('exchangeRecord.externalId', '=', externalId)
            .executeTakeFirstOrThrow()
        ).urlFull
      const [sectionUrl, productUrl] = [await urlOf('door-g'), await urlOf('door-p')]
      expect(productUrl.startsWith(sectionUrl)).toBe(true)
      expect((await page('/structure/')).text).toContain('Дверной раздел')
      expect(await found('петля')).toContain(productUrl)
      expect(made.urls).toEqual(['/structure/', sectionUrl, productUrl].sort())
    })

    it("the operator's details: every page anew, nothing for IndexNow", async () => {
      await cached('/politika')
      const saved = await write(() =>
        t.app.inject({
          method: 'PUT',
          url: '/api/admin/privacy/operator',
          headers: AUTH,
          payload: { name: 'ООО «Дверная ручка»' },
        }),
      )
      expect(saved.bumped).toBe(true)
      expect((await page('/politika')).text).toContain('ООО «Дверная ручка»')
      expect(saved.urls).toEqual([])
    })

    it('reindexes for search only the records whose words a write may have changed', async () => {
      const url = '/structure/power-tools/screwdriver'
      const id = await idAt(url)
      // The title changed behind the door's back: the index still has the old words.
      await t.app.db.updateTable('structure').set({ title: 'Шуруповёрт незаметный' }).where('id', '=', id).execute()
      await t.app.writeDoor.write((unit) => unit.touch([id], { words: false }))
      expect(await found('незаметный')).not.toContain(url)
      await t.app.writeDoor.write(async (unit) => {
        await unit.touch([id], { words: false })
        await unit.touch([id])
      })
      expect(await found('незаметный')).toContain(url)
    })
  })
}
