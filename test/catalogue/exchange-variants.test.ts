// 1C's characteristics become a product's variants (docs/decisions/043-variants.md): offers
// `Ид#Ид` with «ХарактеристикиТовара» make variants with their prices, stock and артикул, their
// characteristics become option rows, a later full offers file removes a variant it no longer names
// and keeps the others' ids, and a prices-only change keeps what it does not say; the owner's
// switches (decision 044) keep a variant's price or stock set on the site, a new variant (of this
// run, also from a later file of it) taking every field; a full file removes only 1C's variants, never
// the ones the site made. SQLite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TestApp } from '../helpers/build-test-app'
import { DIALECTS } from '../helpers/dialects'
import { EXCHANGE_ENV, importXml, injectTransport, OneCClient, offersXml, type Offer } from '../helpers/one-c'
import { writeVariants } from '../../server/catalogue/products/variant-rows'

const ADMIN_TOKEN = 'test-admin-token-1234567890'
const AUTH = { authorization: `Bearer ${ADMIN_TOKEN}` }
const PRICE_TYPES = [
  { id: 'pt-retail', name: 'Розничная' },
  { id: 'pt-old', name: 'Старая цена' },
]
const CATALOGUE = importXml({
  groups: [{ id: 'g-rugs', name: 'Ковры' }],
  products: [{ id: 'rug', name: 'Ковёр Лоза', article: 'ЛЗ', groups: ['g-rugs'] }],
})
const rug = (id: string, colour: string, size: string, rubles: number, quantity: number): Offer => ({
  id: `rug#${id}`,
  name: `Ковёр Лоза (${colour}, ${size})`,
  article: `ЛЗ-${id}`,
  prices: { 'pt-retail': rubles, 'pt-old': rubles + 1000 },
  quantity,
  characteristics: { Цвет: colour, Размер: size },
})

for (const dialect of DIALECTS) {
  describe.runIf(dialect.available)(`1C's characteristics as variants on ${dialect.name}`, () => {
    let t: TestApp
    let client: OneCClient
    beforeAll(async () => {
      t = await dialect.build({ ADMIN_TOKEN, ...EXCHANGE_ENV }, { exchangeStepMs: 1 })
      client = new OneCClient(injectTransport(t.app))
      const res = await t.app.inject({
        method: 'PUT',
        url: '/api/admin/exchange',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
        payload: { enabled: true, priceType: 'Розничная', oldPriceType: 'Старая цена', zeroStock: 'on_order' },
      })
      expect(res.statusCode, res.body).toBe(200)
    })
    afterAll(() => t?.close())

    const variants = async () => {
      const product = await t.app.db
        .selectFrom('exchangeRecord')
        .innerJoin('product', 'product.structureId', 'exchangeRecord.structureId')
        .innerJoin('structure', 'structure.id', 'product.structureId')
        .select(['product.structureId', 'product.price', 'product.availability', 'structure.urlFull'])
        .where('exchangeRecord.externalId', '=', 'rug')
        .executeTakeFirstOrThrow()
      const rows = await t.app.db
        .selectFrom('productVariant')
        .select(['id', 'externalId', 'title', 'article', 'price', 'oldPrice', 'availability'])
        .where('productId', '=', product.structureId)
        .orderBy('sort')
        .execute()
      const options = await t.app.db
        .selectFrom('productProperty')
        .select(['variantId', 'name', 'value'])
        .where('structureId', '=', product.structureId)
        .where('variantId', 'is not', null)
        .orderBy('sort')
        .execute()
      return { product, rows, options }
    }

    it('makes the characteristics of a product its variants, with prices, stock, артикул and options', async () => {
      const offers = offersXml(
        {
          priceTypes: PRICE_TYPES,
          offers: [rug('c1', 'Синий', '160×230', 12990.9, 2), rug('c2', 'Серый', '200×300', 19990, 0)],
        },
        { onlyChanges: false },
      )
      const answers = await client.exchange({ 'import.xml': CATALOGUE, 'offers.xml': offers })
      expect(answers.map((a) => a.lines[0])).toEqual(['success', 'success'])
      const { product, rows, options } = await variants()
      expect(rows).toEqual([
        expect.objectContaining({
          externalId: 'c1',
          title: 'Синий, 160×230',
          article: 'ЛЗ-c1',
          price: 1299090,
          oldPrice: 1399090,
          availability: 'in_stock',
        }),
        expect.objectContaining({
          externalId: 'c2',
          title: 'Серый, 200×300',
          article: 'ЛЗ-c2',
          price: 1999000,
          oldPrice: 2099000,
          availability: 'on_order',
        }),
      ])
      // The product reads as its cheapest variant, in stock since one is.
      expect(product).toMatchObject({ price: 1299090, availability: 'in_stock' })
      expect(options.filter((o) => o.variantId === rows[0].id).map((o) => [o.name, o.value])).toEqual([
        ['Цвет', 'Синий'],
        ['Размер', '160×230'],
      ])
      const page = await t.app.inject({ url: `${product.urlFull}?v=${rows[1].id}` })
      expect(page.statusCode).toBe(200)
      expect(page.body).toContain('Артикул: <!-- -->ЛЗ-c2')
    })

    it("sends a variant's request line to 1C as the characteristic's order line, Ид#Ид", async () => {
      const { product, rows } = await variants()
      const form = { 'content-type': 'application/x-www-form-urlencoded' }
      const fields = { username: 'Иван', phone: '8 999 123-45-67', email: 'ivan@example.ru', consent: 'on' }
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/feedback',
        headers: form,
        payload: new URLSearchParams({ ...fields, lines: `${product.structureId}v${rows[1].id}x2` }).toString(),
      })
      expect(res.statusCode).toBeLessThan(400)
      const sale = new OneCClient(injectTransport(t.app))
      expect((await sale.checkauth('sale')).lines[0]).toBe('success')
      await sale.init('sale')
      const orders = await sale.call('type=sale&mode=query')
      expect(orders.status).toBe(200)
      const text = orders.lines.join('\n')
      expect(text).toContain('<Ид>rug#c2</Ид>')
      expect(text).toContain('Ковёр Лоза, Серый, 200×300')
    })

    it('keeps what a prices-only change does not say, and a full file removes a variant it no longer names', async () => {
      const before = await variants()
      const change = offersXml({ priceTypes: PRICE_TYPES, offers: [{ id: 'rug#c2', prices: { 'pt-retail': 9990 } }] })
      expect((await client.exchange({ 'offers.xml': change })).map((a) => a.lines[0])).toEqual(['success'])
      const changed = await variants()
      expect(changed.rows).toHaveLength(2)
      expect(changed.rows[1]).toMatchObject({
        id: before.rows[1].id,
        price: 999000,
        availability: 'on_order',
        article: 'ЛЗ-c2',
      })
      expect(changed.product.price).toBe(999000)

      const full = offersXml(
        { priceTypes: PRICE_TYPES, offers: [rug('c2', 'Серый', '200×300', 9990, 5)] },
        { onlyChanges: false },
      )
      expect((await client.exchange({ 'offers.xml': full })).map((a) => a.lines[0])).toEqual(['success'])
      const after = await variants()
      expect(after.rows.map((r) => r.id)).toEqual([before.rows[1].id])
      expect(after.options.every((o) => o.variantId === before.rows[1].id)).toBe(true)
      expect(after.product).toMatchObject({ price: 999000, availability: 'in_stock' })
    })

    // The owner's switches (decision 044) hold for variants as for products.
    const settings = async (payload: Record<string, string>) => {
      const res = await t.app.inject({ method: 'PUT', url: '/api/admin/settings', headers: AUTH, payload })
      expect(res.statusCode, res.body).toBe(200)
    }
    const editVariant = async (id: number, payload: object) => {
      const { product } = await variants()
      const res = await t.app.inject({
        method: 'PATCH',
        url: `/api/admin/products/${product.structureId}/variants/${id}`,
        headers: AUTH,
        payload,
      })
      expect(res.statusCode, res.body).toBe(200)
    }
    const send = async (files: Record<string, Buffer>) => {
      const answers = await client.exchange(files)
      expect(
        answers.map((a) => a.lines[0]),
        answers.map((a) => a.body).join('\n'),
      ).toEqual(Object.keys(files).map(() => 'success'))
    }
    const byId = (rows: Awaited<ReturnType<typeof variants>>['rows'], externalId: string) =>
      rows.find((row) => row.externalId === externalId)

    it('with «Цена» off, keeps a variant’s price set on the site; a new variant still gets 1C’s', async () => {
      await settings({ 'exchange.overwrite.price': 'false' })
      const c2 = byId((await variants()).rows, 'c2')!
      await editVariant(c2.id, { price: 8888, oldPrice: 9999 })
      await send({
        'offers.xml': offersXml({
          priceTypes: PRICE_TYPES,
          offers: [rug('c2', 'Серый', '200×300', 7777, 0), rug('c3', 'Бежевый', '80×150', 4990, 1)],
        }),
      })
      const { rows, product } = await variants()
      // Its price and old price are the owner's; its stock is still 1C's (zero: «под заказ»).
      expect(byId(rows, 'c2')).toMatchObject({ id: c2.id, price: 888800, oldPrice: 999900, availability: 'on_order' })
      expect(byId(rows, 'c3')).toMatchObject({ price: 499000, oldPrice: 599000, availability: 'in_stock' })
      expect(product).toMatchObject({ price: 499000, availability: 'in_stock' })
      // «Товары» says 1C overwrites its stock only, so a price edit asks nothing.
      const list = await t.app.inject({ url: '/api/admin/products?pageSize=100', headers: AUTH })
      const row = (list.json().data as { id: number; variants: { id: number; oneC: string[] | null }[] }[]).find(
        (r) => r.id === product.structureId,
      )!
      expect(row.variants.find((v) => v.id === c2.id)?.oneC).toEqual(['stock'])
    })

    it('gives a variant the run created its price from a later file of the same run (prices apart)', async () => {
      const offers = offersXml({
        priceTypes: PRICE_TYPES,
        offers: [{ ...rug('c4', 'Белый', '60×90', 0, 3), prices: undefined }],
      })
      const prices = offersXml({ priceTypes: PRICE_TYPES, offers: [{ id: 'rug#c4', prices: { 'pt-retail': 2990 } }] })
      await send({ 'offers0_1.xml': offers, 'prices0_1.xml': prices })
      expect(byId((await variants()).rows, 'c4')).toMatchObject({ price: 299000, availability: 'in_stock' })
      // A later run's prices keep it as it is now.
      await send({
        'prices.xml': offersXml({ priceTypes: PRICE_TYPES, offers: [{ id: 'rug#c4', prices: { 'pt-retail': 1 } }] }),
      })
      expect(byId((await variants()).rows, 'c4')).toMatchObject({ price: 299000 })
    })

    it('with «Остаток» off, keeps a variant’s availability set on the site; with both on, 1C wins', async () => {
      await settings({ 'exchange.overwrite.price': 'true', 'exchange.overwrite.stock': 'false' })
      const c3 = byId((await variants()).rows, 'c3')!
      await editVariant(c3.id, { availability: 'out_of_stock' })
      const again = offersXml({
        priceTypes: PRICE_TYPES,
        offers: [rug('c3', 'Бежевый', '80×150', 5290, 7), rug('c5', 'Чёрный', '80×150', 5590, 0)],
      })
      await send({ 'offers.xml': again })
      let rows = (await variants()).rows
      // The price is 1C's again; the stock is the owner's; a new variant takes 1C's stock.
      expect(byId(rows, 'c3')).toMatchObject({ price: 529000, availability: 'out_of_stock' })
      expect(byId(rows, 'c5')).toMatchObject({ price: 559000, availability: 'on_order' })

      await settings({ 'exchange.overwrite.stock': 'true' })
      const c2 = byId(rows, 'c2')!
      await editVariant(c2.id, { price: 100, oldPrice: null, availability: 'out_of_stock' })
      await send({
        'offers.xml': offersXml({
          priceTypes: PRICE_TYPES,
          offers: [rug('c2', 'Серый', '200×300', 7777, 2), rug('c3', 'Бежевый', '80×150', 5290, 7)],
        }),
      })
      rows = (await variants()).rows
      expect(byId(rows, 'c2')).toMatchObject({ price: 777700, oldPrice: 877700, availability: 'in_stock' })
      expect(byId(rows, 'c3')).toMatchObject({ availability: 'in_stock' })
    })

    it('a full offers file removes the variants 1C no longer names, never the site’s own', async () => {
      const { product } = await variants()
      // A variant the site made (no characteristic Ид), as the editor's «Варианты» makes one.
      await t.app.writeDoor.write((unit) =>
        writeVariants(
          unit,
          product.structureId,
          [{ title: 'Под заказ, 300×400', article: 'ЛЗ-САЙТ', price: 4_999_000, availability: 'on_order' }],
          false,
        ),
      )
      const own = (await variants()).rows.find((row) => row.article === 'ЛЗ-САЙТ')!
      expect(own).toMatchObject({ externalId: null, price: 4_999_000 })
      await send({
        'offers.xml': offersXml(
          { priceTypes: PRICE_TYPES, offers: [rug('c2', 'Серый', '200×300', 7777, 2)] },
          { onlyChanges: false },
        ),
      })
      const after = await variants()
      expect(after.rows.map((row) => [row.externalId, row.title])).toEqual(
        expect.arrayContaining([
          ['c2', 'Серый, 200×300'],
          [null, 'Под заказ, 300×400'],
        ]),
      )
      expect(after.rows).toHaveLength(2)
      expect(after.rows.find((row) => row.externalId === null)).toEqual(own)
      // The product follows what is left: 1C's cheaper size, in stock.
      expect(after.product).toMatchObject({ price: 777700, availability: 'in_stock' })
      const page = await t.app.inject({ url: `${product.urlFull}?v=${own.id}` })
      expect(page.statusCode).toBe(200)
    })
  })
}
