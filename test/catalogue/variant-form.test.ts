// The editor's «Варианты» (docs/decisions/043-variants.md), on SQLite and PostgreSQL: the demo tool
// box's sizes read with their options; a size added with its артикул, price in rubles and kopecks,
// old price, availability and option value, then edited, reordered and removed, each written through
// the door (the product page, its `?v=`, search, the YML feed and the page cache follow at once, the
// product's price follows its variants) and logged; a duplicate артикул (another product's or
// variant's), a bad price and a missing title refused in Russian, every field at once, nothing
// written; a variant 1C sent of a product from 1C keeps its title, артикул and options 1C's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ONE_C_VARIANT } from '../../src/catalogue/variant-fields'
import { formatMoney } from '../../src/format/money'
import { ADMIN_TOKEN, AUTH } from '../api/helpers'
import { signIn } from '../admin/admin-helpers'
import { pageText, type TestApp } from '../helpers/build-test-app'
import { DIALECTS } from '../helpers/dialects'
import { parseYml } from '../helpers/yml-rules'

const text = pageText

const NEW = {
  title: '24", 610×300×260 мм',
  article: 'РИ-3006-24',
  price: 2199.9,
  oldPrice: 2499,
  availability: 'on_order',
  options: [{ name: 'Размер', value: '24"', unit: null }],
}

for (const dialect of DIALECTS) {
  describe.runIf(dialect.available)(`the editor's variants of a product on ${dialect.name}`, () => {
    let t: TestApp
    let id = 0
    let url = ''
    const api = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT', path: string, payload?: object) =>
      t.app.inject({ method, url: `/api/admin/products/${id}${path}`, headers: AUTH, payload })
    const page = (query = '') => t.app.inject({ url: `${url}${query}`, headers: { 'user-agent': 'Mozilla/5.0 test' } })
    const stored = async () => ({
      product: await t.app.db
        .selectFrom('product')
        .select(['price', 'oldPrice', 'availability'])
        .where('structureId', '=', id)
        .executeTakeFirstOrThrow(),
      variants: await t.app.db
        .selectFrom('productVariant')
        .select(['id', 'title', 'article', 'price', 'oldPrice', 'availability', 'sort'])
        .where('productId', '=', id)
        .orderBy('sort')
        .execute(),
    })
    beforeAll(async () => {
      t = await dialect.build({ ADMIN_TOKEN, YANDEX_FEED: 'true', YANDEX_FEED_COMPANY: 'ООО «ТехноМастер»' })
      const row = await t.app.db
        .selectFrom('structure')
        .select(['id', 'urlFull'])
        .where('title', '=', 'Ящик для инструмента')
        .executeTakeFirstOrThrow()
      id = row.id
      url = row.urlFull
    })
    afterAll(() => t?.close())

    it('lists the variants with their option values and the characteristic they differ by', async () => {
      const res = await api('GET', '/variants')
      expect(res.statusCode, res.body).toBe(200)
      const { data } = res.json()
      expect(data.fromOneC).toBe(false)
      expect(data.options).toEqual([{ name: 'Размер', unit: null }])
      expect(data.variants).toHaveLength(3)
      expect(data.variants[0]).toMatchObject({
        article: 'РИ-3006-16',
        price: 1290,
        oneC: null,
        options: [{ name: 'Размер', value: '16"', unit: null }],
      })
    })

    it('adds a variant: exact kopecks, the page, its ?v=, search, the feed and the cached page follow', async () => {
      expect(text((await page()).body)).not.toContain('24"') // kept in the page cache now
      const res = await api('POST', '/variants', NEW)
      expect(res.statusCode, res.body).toBe(201)
      const variantId = res.json().data.variantId as number
      const { product, variants } = await stored()
      expect(variants.at(-1)).toMatchObject({
        id: variantId,
        article: 'РИ-3006-24',
        price: 219990,
        oldPrice: 249900,
        availability: 'on_order',
      })
      // The product still reads as its cheapest variant.
      expect(product).toMatchObject({ price: 129000 })
      const body = text((await page()).body)
      expect(body).toContain('24", 610×300×260 мм')
      const chosen = await page(`?v=${variantId}`)
      expect(chosen.statusCode).toBe(200)
      expect(text(chosen.body)).toContain('2 199,90 ₽')
      expect(text(chosen.body)).toContain('РИ-3006-24')
      const found = await t.app.inject({ url: `/poisk?q=${encodeURIComponent('РИ300624')}` })
      expect(found.body).toContain(`href="${url}?v=${variantId}"`)
      const feed = parseYml((await t.app.inject({ url: '/feeds/yandex.xml' })).body)
      const offer = feed.offers.find((o) => o.id === `${id}v${variantId}`)
      expect(offer?.fields.price).toEqual(['2199.90'])
      expect(offer?.params).toContainEqual({ name: 'Размер', value: '24"' })
      const audit = await t.app.inject({ url: '/api/admin/products/audit', headers: AUTH })
      expect(audit.json().data[0].action).toBe('Добавлен вариант «24", 610×300×260 мм» («Ящик для инструмента»)')
    })

    it('refuses a duplicate артикул, a bad price and a missing title in Russian, writing nothing', async () => {
      const before = await stored()
      const other = await t.app.db
        .selectFrom('product')
        .innerJoin('structure', 'structure.id', 'product.structureId')
        .select(['product.article', 'structure.title'])
        .where('product.article', 'is not', null)
        .where('product.structureId', '!=', id)
        .executeTakeFirstOrThrow()
      const cases: [object, Record<string, string>][] = [
        [
          { ...NEW, title: 'Ещё', article: 'РИ-3006-16' },
          { article: 'Артикул «РИ-3006-16» уже есть у варианта «16", 410×220×180 мм» товара «Ящик для инструмента»' },
        ],
        [
          { ...NEW, title: 'Ещё', article: other.article },
          { article: `Артикул «${other.article}» уже есть у товара «${other.title}»` },
        ],
        [
          { ...NEW, title: '24", 610×300×260 мм', article: 'НОВЫЙ-1' },
          { title: 'У товара уже есть вариант «24", 610×300×260 мм»' },
        ],
        [
          { title: ' ', price: 12.345, oldPrice: -1, availability: 'soon' },
          {
            title: 'Укажите название варианта, например «Синий, 160×230»',
            price: 'Цена: сумма в рублях от 0, не более 2 знаков после запятой',
            oldPrice: 'Старая цена: сумма в рублях от 0, не более 2 знаков после запятой',
            availability: 'Выберите наличие',
          },
        ],
        [
          { ...NEW, title: 'Ещё', article: 'НОВЫЙ-2', price: 3000, oldPrice: 2000 },
          { oldPrice: `Старая цена должна быть больше цены (${formatMoney(300000)})` },
        ],
      ]
      for (const [payload, errors] of cases) {
        const res = await api('POST', '/variants', payload)
        expect(res.statusCode, res.body).toBe(400)
        expect(res.json().errors).toEqual(errors)
      }
      const foreign = await t.app.inject({
        method: 'POST',
        url: `/api/admin/products/${id}/variants`,
        headers: { cookie: await signIn(t.app), origin: 'https://evil.example.com' },
        payload: { ...NEW, title: 'Чужой', article: 'ЧУЖОЙ' },
      })
      expect(foreign.statusCode).toBe(403)
      expect((await api('POST', '/variants', {})).statusCode).toBe(400)
      expect(
        (await t.app.inject({ method: 'POST', url: `/api/admin/products/${id}/variants`, payload: NEW })).statusCode,
      ).toBe(401)
      expect(await stored()).toEqual(before)
      expect(
        (
          await t.app.inject({
            method: 'POST',
            url: '/api/admin/products/999999/variants',
            headers: AUTH,
            payload: NEW,
          })
        ).statusCode,
      ).toBe(404)
    })

    it('edits a variant’s title, артикул, option and price; search finds the new артикул, not the old', async () => {
      const variant = (await stored()).variants.at(-1)!
      const res = await api('PATCH', `/variants/${variant.id}`, {
        title: '25", 640×300×260 мм',
        article: 'РИ-3006-25',
        price: 999.5,
        oldPrice: null,
        availability: 'in_stock',
        options: [{ name: 'Размер', value: '25"', unit: null }],
      })
      expect(res.statusCode, res.body).toBe(200)
      const { product, variants } = await stored()
      expect(variants.at(-1)).toMatchObject({
        title: '25", 640×300×260 мм',
        article: 'РИ-3006-25',
        price: 99950,
        oldPrice: null,
      })
      // The cheapest variant now: the product follows.
      expect(product).toMatchObject({ price: 99950, availability: 'in_stock' })
      expect(text((await page()).body)).toContain('от 999,50 ₽')
      expect((await t.app.inject({ url: `/poisk?q=${encodeURIComponent('РИ300625')}` })).body).toContain(
        `?v=${variant.id}`,
      )
      expect((await t.app.inject({ url: `/poisk?q=${encodeURIComponent('РИ300624')}` })).body).not.toContain(
        `?v=${variant.id}`,
      )
      expect((await api('PATCH', `/variants/${variant.id}`, {})).json().errors).toEqual({ price: 'Нечего сохранить' })
      // Two variants stored alike (by an older price list) are still saved with their title unchanged.
      const [first, second] = (await stored()).variants
      await t.app.db.updateTable('productVariant').set({ title: second.title }).where('id', '=', first.id).execute()
      const alike = await api('PATCH', `/variants/${first.id}`, { title: second.title, price: 1290 })
      expect(alike.statusCode, alike.body).toBe(200)
      await t.app.db.updateTable('productVariant').set({ title: first.title }).where('id', '=', first.id).execute()
      const stranger = await t.app.db
        .selectFrom('productVariant')
        .select('id')
        .where('productId', '!=', id)
        .executeTakeFirst()
      expect((await api('PATCH', `/variants/${stranger?.id ?? 999999}`, { price: 1 })).statusCode).toBe(404)
    })

    it('reorders the variants, and the chooser follows', async () => {
      const ids = (await stored()).variants.map((v) => v.id)
      const reversed = [...ids].reverse()
      expect((await api('PUT', '/variant-order', { ids: reversed })).statusCode).toBe(200)
      expect((await stored()).variants.map((v) => v.id)).toEqual(reversed)
      const html = (await page()).body
      const places = reversed.map((v) => html.indexOf(`?v=${v}"`))
      expect(places.every((p, i) => p > 0 && (i === 0 || p > places[i - 1]))).toBe(true)
      expect((await api('PUT', '/variant-order', { ids: reversed.slice(1) })).statusCode).toBe(409)
    })

    it('removes a variant: its ?v= goes to the product, its feed offer is gone, the price follows the rest', async () => {
      const variant = (await stored()).variants.find((v) => v.article === 'РИ-3006-25')!
      expect((await api('DELETE', `/variants/${variant.id}`)).statusCode).toBe(200)
      const { product, variants } = await stored()
      expect(variants.map((v) => v.article).sort()).toEqual(['РИ-3006-16', 'РИ-3006-19', 'РИ-3006-22'])
      expect(product).toMatchObject({ price: 129000 })
      expect((await page(`?v=${variant.id}`)).statusCode).toBe(301)
      expect((await t.app.inject({ url: '/feeds/yandex.xml' })).body).not.toContain(`${id}v${variant.id}`)
      expect((await api('DELETE', `/variants/${variant.id}`)).statusCode).toBe(404)
    })

    it('keeps the title, артикул and options of a variant 1C sent of a product from 1C; its price is the owner’s to set', async () => {
      const variant = (await stored()).variants[0]
      await t.app.db
        .insertInto('exchangeRecord')
        .values({ kind: 'product', externalId: 'box', structureId: id, seenRun: 0 })
        .execute()
      await t.app.db.updateTable('productVariant').set({ externalId: 'box-16' }).where('id', '=', variant.id).execute()
      const list = (await api('GET', '/variants')).json().data
      expect(list.fromOneC).toBe(true)
      expect(list.variants.find((v: { id: number }) => v.id === variant.id).oneC).toEqual(['price', 'stock', 'images'])
      for (const [change, field] of [
        [{ title: 'Другое' }, 'title'],
        [{ article: 'ДРУГОЙ' }, 'article'],
        [{ options: [{ name: 'Размер', value: '17"', unit: null }] }, 'options'],
      ] as const) {
        const res = await api('PATCH', `/variants/${variant.id}`, { ...change, price: 1 })
        expect(res.statusCode, res.body).toBe(400)
        expect(res.json().errors).toEqual({ [field]: ONE_C_VARIANT[field] })
      }
      expect((await stored()).variants[0]).toEqual(variant)
      // Sent back as stored, they pass with the price.
      const same = await api('PATCH', `/variants/${variant.id}`, {
        title: variant.title,
        article: variant.article,
        price: 1234.56,
      })
      expect(same.statusCode, same.body).toBe(200)
      expect((await stored()).variants[0]).toMatchObject({ price: 123456 })
    })
  })
}
