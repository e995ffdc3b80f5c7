// Variants on one page (docs/decisions/043-variants.md), as a visitor and a crawler read the demo
// shop's tool box in three sizes: the chooser's links, the chosen variant's price, availability and
// артикул, 301 for a variant it has not, the ProductGroup JSON-LD, «от» on the card, and a section's
// filter finding the product by a size its variant has, a search hit on a size's артикул (in any
// form) linking to that size. SQLite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pageText, type TestApp } from '../helpers/build-test-app'
import { DIALECTS } from '../helpers/dialects'
import { parseYml, ymlProblems } from '../helpers/yml-rules'

const URL = '/structure/hand-tools/tool-box'

function jsonLd(html: string): any[] {
  return [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => JSON.parse(m[1]))
}

const text = pageText

for (const dialect of DIALECTS) {
  describe.runIf(dialect.available)(`a product's variants on its page on ${dialect.name}`, () => {
    let t: TestApp
    const get = (url: string) => t.app.inject({ method: 'GET', url, headers: { 'user-agent': 'Mozilla/5.0 test' } })
    let ids: number[] = []
    let url = URL
    let productId = 0
    beforeAll(async () => {
      t = await dialect.build({ YANDEX_FEED: 'true', YANDEX_FEED_COMPANY: 'ООО «ТехноМастер»' })
      const row = await t.app.db
        .selectFrom('structure')
        .select(['id', 'urlFull'])
        .where('title', '=', 'Ящик для инструмента')
        .executeTakeFirstOrThrow()
      url = row.urlFull
      productId = row.id
      ids = (
        await t.app.db
          .selectFrom('productVariant')
          .select('id')
          .where('productId', '=', row.id)
          .orderBy('sort')
          .execute()
      ).map((v) => v.id)
    })
    afterAll(() => t?.close())

    it('offers each variant as a link and shows the lowest price «от» before a choice', async () => {
      expect(ids).toHaveLength(3)
      const res = await get(url)
      expect(res.statusCode).toBe(200)
      for (const id of ids) expect(res.body).toContain(`href="${url}?v=${id}"`)
      expect(text(res.body)).toContain('от 1 290 ₽')
      expect(text(res.body)).toContain('Выберите вариант')
      // The option rows make the chooser, not the characteristics table.
      expect(res.body).not.toMatch(/<th[^>]*>Размер/)
    })

    it("shows the chosen variant's price, availability and артикул, canonical to the product", async () => {
      const res = await get(`${url}?v=${ids[2]}`)
      expect(res.statusCode).toBe(200)
      const page = text(res.body)
      expect(page).toContain('1 990 ₽')
      expect(page).not.toContain('от 1 290')
      expect(page).toContain('Под заказ')
      expect(page).toContain('Артикул: РИ-3006-22')
      expect(res.body).toMatch(/<a [^>]*aria-current="true"[^>]*>22&quot;/)
      expect(res.body).toMatch(new RegExp(`<link rel="canonical" href="[^"]*${url}"`))
    })

    it('answers 301 to the product for a variant it does not have, or a value that is no id', async () => {
      for (const v of ['999999', 'abc', `${ids[0]}&v=${ids[1]}`]) {
        const res = await get(`${url}?v=${v}`)
        expect(res.statusCode).toBe(301)
        expect(res.headers.location).toBe(url)
      }
      // A section has no variants: the parameter is dropped there too.
      const section = await get('/structure/hand-tools/?v=1')
      expect(section.statusCode).toBe(301)
    })

    it('describes the product as a ProductGroup of its variants', async () => {
      const group = jsonLd((await get(url)).body).find((x) => x['@type'] === 'ProductGroup')
      expect(group.productGroupID).toMatch(/^\d+$/)
      expect(group.variesBy).toEqual(['https://schema.org/size'])
      expect(group.hasVariant).toHaveLength(3)
      expect(group.hasVariant[0]).toMatchObject({
        '@type': 'Product',
        sku: 'РИ-3006-16',
        url: `https://shop.example.ru${url}?v=${ids[0]}`,
        offers: { '@type': 'Offer', price: '1290', priceCurrency: 'RUB', availability: 'https://schema.org/InStock' },
      })
      expect(group.hasVariant[2].offers.availability).toBe('https://schema.org/BackOrder')
    })

    it('finds the product in its section by a size one of its variants has, counted once', async () => {
      const size = await t.app.db
        .selectFrom('characteristic')
        .select('id')
        .where('name', '=', 'Размер')
        .executeTakeFirstOrThrow()
      await t.app.db.updateTable('characteristic').set({ filter: 'values' }).where('id', '=', size.id).execute()
      const res = await get(`/structure/hand-tools/?f.${size.id}=${encodeURIComponent('22"')}`)
      expect(res.statusCode).toBe(200)
      const page = text(res.body)
      expect(page).toContain('Ящик для инструмента')
      expect(page).not.toContain('Уровень строительный')
      expect(page).toMatch(/16" \(?1\)?/)
    })

    it('gives each variant with a price its own feed offer, grouped by the product', async () => {
      const res = await t.app.inject({ url: '/feeds/yandex.xml' })
      expect(res.statusCode).toBe(200)
      expect(ymlProblems(res.body, 'https://shop.example.ru')).toEqual([])
      const offers = parseYml(res.body).offers.filter((o) => o.groupId === String(productId))
      expect(offers.map((o) => o.id)).toEqual(ids.map((id) => `${productId}v${id}`))
      expect(offers.map((o) => o.fields.price[0])).toEqual(['1290', '1590', '1990'])
      expect(offers[0].fields.vendorCode).toEqual(['РИ-3006-16'])
      expect(offers[0].fields.url).toEqual([`https://shop.example.ru${url}?v=${ids[0]}`])
      expect(offers[2].available).toBe('false')
      expect(offers[0].params).toContainEqual({ name: 'Размер', value: '16"' })
      // The product itself is no offer of its own.
      expect(parseYml(res.body).offers.some((o) => o.id === String(productId))).toBe(false)
    })

    it("links a hit on a variant's артикул to that variant, with or without its separators", async () => {
      for (const q of ['РИ-3006-22', 'ри 3006 22', 'РИ300622', 'ри300622']) {
        const res = await get(`/poisk?q=${encodeURIComponent(q)}`)
        expect(res.statusCode, q).toBe(200)
        expect(res.body, q).toContain(`href="${url}?v=${ids[2]}"`)
        const page = text(res.body)
        // The card is the variant's: its title after the product's, its артикул, price and availability.
        expect(page, q).toContain('Артикул: РИ-3006-22')
        expect(page, q).toContain('1 990 ₽')
        expect(page, q).toContain('Под заказ')
      }
      // An артикул all three sizes share a part of finds the product itself.
      for (const q of ['РИ-3006', 'ри3006']) {
        const res = await get(`/poisk?q=${encodeURIComponent(q)}`)
        expect(res.body, q).toContain(`href="${url}"`)
        expect(res.body, q).not.toContain(`${url}?v=`)
      }
    })

    it('says «от» on the card of a product whose variants differ in price', async () => {
      const res = await get('/structure/hand-tools/')
      expect(text(res.body)).toMatch(/Ящик для инструмента .*от 1 290 ₽/)
    })
  })
}
