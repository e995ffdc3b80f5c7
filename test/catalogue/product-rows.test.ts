// Product rows have one repository (issue 43, server/catalogue/products/product-rows.ts): whichever
// writer changes a product (the editor's record write, the model API's product alone, «Товары»'s edit
// in place and its price and availability actions, the price list, the 1C exchange's catalogue and
// offers), the product's page shows the change at once, its record's updatedAt (the sitemap's
// <lastmod>) is the write's time, and search finds new words and still finds the product after a
// price change. On SQLite and PostgreSQL.
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { formatMoney } from '../../src/format/money'
import { readContentVersion } from '../../server/data/db'
import { ADMIN_TOKEN, AUTH } from '../api/helpers'
import { decodeEntities, recordIdAt, type TestApp } from '../helpers/build-test-app'
import { DIALECTS } from '../helpers/dialects'
import { sendRecord, uploadPriceList } from '../helpers/multipart'
import { enableExchange, EXCHANGE_ENV, importXml, injectTransport, offersXml, OneCClient } from '../helpers/one-c'

const PUBLIC_URL = 'https://shop.example.ru'
const SCREWDRIVER = '/structure/power-tools/screwdriver'
const later = () => new Promise((resolve) => setTimeout(resolve, 5))

for (const dialect of DIALECTS) {
  describe.runIf(dialect.available)(`every writer of a product row on ${dialect.name}`, () => {
    let t: TestApp
    let id: number
    beforeAll(async () => {
      t = await dialect.build({ ADMIN_TOKEN, PUBLIC_URL, ...EXCHANGE_ENV }, { exchangeStepMs: 1 })
      id = await recordIdAt(t.app.db, SCREWDRIVER)
      await enableExchange(t.app)
    })
    afterAll(async () => {
      await t?.close()
    })

    const page = async (url: string) =>
      decodeEntities((await t.app.inject({ url, headers: { 'user-agent': 'Mozilla/5.0 test' } })).body)
    const updatedAt = async (recordId = id) =>
      (await t.app.db.selectFrom('structure').select('updatedAt').where('id', '=', recordId).executeTakeFirstOrThrow())
        .updatedAt
    const lastmodOf = async (url: string) => {
      const sitemap = (await t.app.inject({ url: '/sitemap.xml' })).body
      return new RegExp(`<loc>${PUBLIC_URL}${url}</loc><lastmod>([\\d-]+)</lastmod>`).exec(sitemap)?.[1]
    }

    /**
     * Runs a write of the screwdriver (cached first) and checks what every writer must do: the
     * content version moved, the record's updatedAt is the write's time, and the page shows `shown`.
     */
    async function expectWritten(write: () => Promise<{ statusCode: number; body: string }>, shown: string) {
      await page(SCREWDRIVER)
      const version = await readContentVersion(t.app.db)
      const before = await updatedAt()
      await later()
      const startedAt = new Date().toISOString()
      const res = await write()
      expect(res.statusCode, res.body).toBeLessThan(300)
      expect(await readContentVersion(t.app.db)).toBeGreaterThan(version)
      const after = await updatedAt()
      expect(after > before && after >= startedAt, `${before} → ${after}`).toBe(true)
      expect(await lastmodOf(SCREWDRIVER)).toBe(after.slice(0, 10))
      expect(await page(SCREWDRIVER)).toContain(shown)
    }
    const price = (rubles: number) => formatMoney(rubles * 100)

    it('the editor: a record written with its product part', async () => {
      await expectWritten(
        () => sendRecord(t.app, AUTH, 'PATCH', '/api/structure', { id, product: { price: 5101 } }),
        price(5101),
      )
    })

    it('the model API: the product written alone', async () => {
      await expectWritten(
        () => sendRecord(t.app, AUTH, 'PATCH', '/api/product', { structureId: id, price: 5102 }),
        price(5102),
      )
    })

    it('«Товары»: an edit in place, a price action and an availability action', async () => {
      const inject = (method: 'PATCH' | 'POST', url: string, payload: unknown) =>
        t.app.inject({ method, url, headers: AUTH, payload: payload as Record<string, unknown> })
      await expectWritten(() => inject('PATCH', `/api/admin/products/${id}`, { price: 5103 }), price(5103))
      await expectWritten(
        () =>
          inject('POST', '/api/admin/products/actions', {
            operation: randomUUID(),
            ids: [id],
            action: { kind: 'price', amount: 100, keepOldPrice: false },
          }),
        price(5203),
      )
      await expectWritten(
        () =>
          inject('POST', '/api/admin/products/actions', {
            operation: randomUUID(),
            ids: [id],
            action: { kind: 'availability', availability: 'on_order' },
          }),
        'Под заказ',
      )
      // A price changes no word: search still finds the product by its name.
      expect(await page(`/poisk?q=${encodeURIComponent('шуруповёрт')}`)).toContain(SCREWDRIVER)
    })

    it('the price list', async () => {
      const file = Buffer.from('Артикул;Цена;Наличие\nЭИ-1002;5104;в наличии\n')
      await expectWritten(async () => {
        const preview = await uploadPriceList(t.app, AUTH, file)
        return uploadPriceList(t.app, AUTH, file, preview.json().data.confirm)
      }, price(5104))
    })

    it('the 1C exchange: a product it made, then its description, characteristics and price', async () => {
      const client = new OneCClient(injectTransport(t.app))
      const product = { id: 'rows-1', name: 'Рубанок репозиторный', article: 'РР-1', description: 'Первое описание.' }
      const offers = (rubles: number) =>
        offersXml({
          priceTypes: [{ id: 'pt', name: 'Розничная' }],
          offers: [{ id: 'rows-1', prices: { pt: rubles }, quantity: 3 }],
        })
      const first = await client.exchange({
        'import.xml': importXml({ products: [product] }),
        'offers.xml': offers(2100),
      })
      expect(first.map((a) => a.lines[0])).toEqual(['success', 'success'])
      const row = await t.app.db
        .selectFrom('exchangeRecord')
        .innerJoin('structure', 'structure.id', 'exchangeRecord.structureId')
        .select(['structure.id', 'structure.urlFull'])
        .where('exchangeRecord.externalId', '=', 'rows-1')
        .executeTakeFirstOrThrow()
      expect(await page(row.urlFull)).toContain(price(2100))

      const before = await updatedAt(row.id)
      await later()
      const changed = await client.exchange({
        'import.xml': importXml({
          properties: [{ id: 'p-len', name: 'Длина подошвы' }],
          products: [{ ...product, description: 'Второе описание, стружечное.', properties: { 'p-len': '310 мм' } }],
        }),
      })
      expect(changed.map((a) => a.lines[0])).toEqual(['success'])
      const described = await updatedAt(row.id)
      expect(described > before, `${before} → ${described}`).toBe(true)
      const shown = await page(row.urlFull)
      expect(shown).toContain('Второе описание, стружечное.')
      expect(shown).toContain('310 мм')
      expect(await page(`/poisk?q=${encodeURIComponent('стружечное')}`)).toContain(row.urlFull)

      await later()
      expect((await client.exchange({ 'offers.xml': offers(2200) })).map((a) => a.lines[0])).toEqual(['success'])
      expect(await updatedAt(row.id)).not.toBe(described)
      expect(await page(row.urlFull)).toContain(price(2200))
    })

    it('the generic writers of the model API refuse the product tables', async () => {
      const { partModel } = await import('../../server/model-api/registry')
      const { writeOnePart } = await import('../../server/model-api/write-rows')
      await expect(
        t.app.writeDoor.write((unit) => writeOnePart(unit, partModel('product'), id, { price: 1 })),
      ).rejects.toThrow(/product-row repository/)
      const stored = await t.app.db
        .selectFrom('product')
        .select('price')
        .where('structureId', '=', id)
        .executeTakeFirst()
      expect(stored?.price).not.toBe(1)
    })
  })
}
