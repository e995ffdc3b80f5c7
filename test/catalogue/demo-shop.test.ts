// «Убрать демо-магазин» (issue 45, item 3), on SQLite and PostgreSQL: one confirmed action removes
// the demo's sections, products, slides and advantages; their URLs answer 410 and search forgets
// them; the home page's record, the catalogue's top section, the documents and the owner's own
// records stay (a demo section holding one of them too); afterwards a price list and a 1C exchange
// fill the empty catalogue.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_TOKEN, AUTH } from '../api/helpers'
import { decodeEntities, recordIdAt, type TestApp } from '../helpers/build-test-app'
import { DIALECTS } from '../helpers/dialects'
import { sendRecord, uploadPriceList } from '../helpers/multipart'
import { enableExchange, EXCHANGE_ENV, importXml, injectTransport, OneCClient } from '../helpers/one-c'

for (const dialect of DIALECTS) {
  describe.runIf(dialect.available)(`«Убрать демо-магазин» on ${dialect.name}`, () => {
    let t: TestApp
    beforeAll(async () => {
      t = await dialect.build({ ADMIN_TOKEN, ...EXCHANGE_ENV })
      await enableExchange(t.app)
    })
    afterAll(async () => {
      await t?.close()
    })

    const page = async (url: string) => {
      const res = await t.app.inject({ url, headers: { 'user-agent': 'Mozilla/5.0 test' } })
      return { status: res.statusCode, text: decodeEntities(res.body) }
    }
    const demoLeft = async () => {
      const res = await t.app.inject({ url: '/api/admin/demo-shop', headers: AUTH })
      expect(res.statusCode, res.body).toBe(200)
      const body: { data: { products: number } } = res.json()
      return body.data.products
    }

    it('is refused to a stranger and changes nothing', async () => {
      const res = await t.app.inject({ method: 'DELETE', url: '/api/admin/demo-shop' })
      expect(res.statusCode).toBe(401)
      expect((await page('/structure/power-tools/screwdriver')).status).toBe(200)
    })

    it('removes the demo catalogue, slides and advantages, and keeps the home page, documents and the owner’s records', async () => {
      const before = await demoLeft()
      expect(before).toBeGreaterThan(20)
      expect((await page('/')).text).toContain('Садовая техника к новому сезону')
      // The owner already put a product of their own into a demo section.
      const own = await sendRecord(t.app, AUTH, 'POST', '/api/structure', {
        parentId: await recordIdAt(t.app.db, '/structure/garden/'),
        typeId: 'product',
        title: 'Тачка садовая собственная',
        urlFull: '/structure/garden/tachka',
        product: { article: 'СВ-1', price: 3500 },
      })
      expect(own.statusCode, own.body).toBeLessThan(300)

      const res = await t.app.inject({ method: 'DELETE', url: '/api/admin/demo-shop', headers: AUTH })
      expect(res.statusCode, res.body).toBe(200)
      const removed: { data: Record<string, unknown> } = res.json()
      expect(removed.data).toEqual({
        products: before,
        sections: 3,
        slides: 3,
        advantages: 4,
        kept: ['Садовая техника'],
      })
      expect(await demoLeft()).toBe(0)

      expect((await page('/structure/power-tools/screwdriver')).status).toBe(410)
      expect((await page('/structure/power-tools/')).status).toBe(410)
      expect((await page('/structure/krepezh/')).status).toBe(410)
      const home = await page('/')
      expect(home.status).toBe(200)
      expect(home.text).not.toContain('Садовая техника к новому сезону')
      expect(home.text).not.toContain('Быстрая доставка')
      expect(home.text).not.toContain('Шуруповёрт аккумуляторный')
      expect((await page('/structure/')).status).toBe(200)
      expect((await page('/politika')).status).toBe(200)
      expect((await page('/structure/garden/tachka')).text).toContain('Тачка садовая собственная')
      const search = await page(`/poisk?q=${encodeURIComponent('шуруповёрт')}`)
      expect(search.text).not.toContain('/structure/power-tools/screwdriver')
      expect((await page(`/poisk?q=${encodeURIComponent('тачка')}`)).text).toContain('/structure/garden/tachka')
    })

    it('leaves an empty catalogue that a price list and a 1C exchange fill', async () => {
      const file = Buffer.from('Артикул;Наименование;Цена;Раздел\nНВ-1;Дрель новая;4100;Инструмент\n')
      const preview = await uploadPriceList(t.app, AUTH, file)
      const applied = await uploadPriceList(t.app, AUTH, file, preview.json().data.confirm)
      expect(applied.statusCode, applied.body).toBe(200)
      expect(applied.json().data.created).toBe(1)
      const made = await t.app.db
        .selectFrom('structure')
        .innerJoin('product', 'product.structureId', 'structure.id')
        .select(['structure.urlFull', 'structure.published', 'structure.visible'])
        .where('product.article', '=', 'НВ-1')
        .executeTakeFirstOrThrow()
      expect((await page(made.urlFull)).text).toContain('Дрель новая')
      expect((await page(`/poisk?q=${encodeURIComponent('дрель')}`)).text).toContain(made.urlFull)

      const client = new OneCClient(injectTransport(t.app))
      const answers = await client.exchange({
        'import.xml': importXml({
          groups: [{ id: 'g-1', name: 'Насосы' }],
          products: [{ id: 'p-1', name: 'Насос дренажный', article: 'НД-1', groups: ['g-1'] }],
        }),
      })
      expect(answers.map((a) => a.lines[0])).toEqual(['success'])
      expect((await page(`/poisk?q=${encodeURIComponent('насос')}`)).text).toContain('Насос')
      expect(await demoLeft()).toBe(0)
    })
  })
}
