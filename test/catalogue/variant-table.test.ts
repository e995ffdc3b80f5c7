// «Товары» and variants (docs/decisions/043-variants.md), on SQLite and PostgreSQL: the demo tool box
// lists its three sizes under it; a size's price edited in place is the product page's price and
// «от» at once, its availability the product's; a refused edit (a bad sum, an old price under the
// price, a variant of another product) says why in Russian and changes nothing; the product's own
// price, which its variants set, is refused with the reason instead of being lost, and an action
// («Изменить цену», «Изменить наличие») on it changes its variants; a variant 1C sent says which of
// its price and stock 1C overwrites (the owner's switches, decision 044).
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, RootOperationNode } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { writeVariants } from '../../server/catalogue/products/variant-rows'
import { ADMIN_TOKEN, AUTH } from '../api/helpers'
import { decodeEntities, type TestApp } from '../helpers/build-test-app'
import { DIALECTS } from '../helpers/dialects'

interface VariantRow {
  id: number
  title: string
  article: string | null
  price: number | null
  oldPrice: number | null
  availability: string
  oneC: string[] | null
}

/** Counts the statements that read or write productVariant */
class VariantReads implements KyselyPlugin {
  count = 0
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    if (
      JSON.stringify(args.node, (_, v: unknown) => (typeof v === 'bigint' ? String(v) : v)).includes('"productVariant"')
    )
      this.count++
    return args.node
  }
  async transformResult(args: PluginTransformResultArgs) {
    return args.result
  }
}

const text = (html: string) =>
  decodeEntities(html.replace(/<(script|style)[\s\S]*?<\/\1>/g, ' ').replace(/<[^>]+>/g, ' '))
    .replace(/\u00a0/g, ' ')
    .replace(/\s+/g, ' ')

for (const dialect of DIALECTS) {
  describe.runIf(dialect.available)(`«Товары» with variants on ${dialect.name}`, () => {
    let t: TestApp
    let productId = 0
    let url = ''
    const reads = new VariantReads()
    beforeAll(async () => {
      t = await dialect.build({ ADMIN_TOKEN }, { databasePlugins: [reads] })
      const row = await t.app.db
        .selectFrom('structure')
        .select(['id', 'urlFull'])
        .where('title', '=', 'Ящик для инструмента')
        .executeTakeFirstOrThrow()
      productId = row.id
      url = row.urlFull
    })
    afterAll(() => t?.close())

    const list = async () => {
      const res = await t.app.inject({ url: '/api/admin/products?pageSize=100', headers: AUTH })
      expect(res.statusCode, res.body).toBe(200)
      return res.json().data as { id: number; price: number | null; availability: string; variants: VariantRow[] }[]
    }
    const tableRow = async () => (await list()).find((row) => row.id === productId)!
    const patch = (path: string, payload: unknown) =>
      t.app.inject({ method: 'PATCH', url: `/api/admin/products/${path}`, headers: AUTH, payload: payload as object })
    const page = async (path: string) => {
      const res = await t.app.inject({ url: path, headers: { 'user-agent': 'Mozilla/5.0 test' } })
      expect(res.statusCode).toBe(200)
      return text(res.body)
    }
    const stored = async () =>
      t.app.db
        .selectFrom('productVariant')
        .select(['id', 'price', 'oldPrice', 'availability'])
        .where('productId', '=', productId)
        .orderBy('sort')
        .execute()

    it('lists the variants under their product, the others with none', async () => {
      const rows = await list()
      const box = rows.find((row) => row.id === productId)!
      expect(box.variants.map((v) => [v.title, v.article, v.price, v.availability])).toEqual([
        ['16", 410×220×180 мм', 'РИ-3006-16', 1290, 'in_stock'],
        ['19", 480×250×220 мм', 'РИ-3006-19', 1590, 'in_stock'],
        ['22", 560×290×240 мм', 'РИ-3006-22', 1990, 'on_order'],
      ])
      expect(box.variants[0].oneC).toBeNull()
      expect(box.price).toBe(1290)
      expect(rows.filter((row) => row.id !== productId).every((row) => row.variants.length === 0)).toBe(true)
    })

    it('reads the variants of a page in one statement, however many of its products have them', async () => {
      reads.count = 0
      await list()
      const one = reads.count
      expect(one).toBe(1)
      // Two more products with variants on the page: not one statement more.
      const others = (await list()).filter((row) => row.id !== productId).slice(0, 2)
      await t.app.writeDoor.write(async (unit) => {
        for (const row of others) await writeVariants(unit, row.id, [{ title: 'Малый', price: 100 }], true)
      })
      reads.count = 0
      const rows = await list()
      expect(rows.filter((row) => row.variants.length > 0)).toHaveLength(3)
      expect(reads.count).toBe(one)
      await t.app.writeDoor.write(async (unit) => {
        for (const row of others) await writeVariants(unit, row.id, [], true)
      })
      expect((await list()).filter((row) => row.variants.length > 0)).toHaveLength(1)
    })

    it("finds the product in «Товары» by a variant's артикул in any form", async () => {
      for (const q of ['РИ-3006-22', 'РИ300622']) {
        const res = await t.app.inject({ url: `/api/admin/products?q=${encodeURIComponent(q)}`, headers: AUTH })
        expect(
          res.json().data.map((row: { id: number }) => row.id),
          q,
        ).toEqual([productId])
      }
    })

    it("makes a variant's new price the product page's price and «от» at once", async () => {
      const [small, , large] = (await tableRow()).variants
      const cheaper = await patch(`${productId}/variants/${small.id}`, { price: 990.5, oldPrice: 1290 })
      expect(cheaper.statusCode, cheaper.body).toBe(200)
      expect(await page(url)).toContain('от 990,50 ₽')
      expect(await page(`${url}?v=${small.id}`)).toMatch(/990,50 ₽.*1 290 ₽/)
      expect((await tableRow()).price).toBe(990.5)

      // The cheapest one dearer than the others: «от» is the next one's price.
      expect((await patch(`${productId}/variants/${small.id}`, { oldPrice: null, price: 2500 })).statusCode).toBe(200)
      expect(await page(url)).toContain('от 1 590 ₽')
      expect(await page('/structure/hand-tools/')).toMatch(/Ящик для инструмента .*от 1 590 ₽/)

      // Availability: the product is the best of its variants.
      for (const v of (await tableRow()).variants) {
        const res = await patch(`${productId}/variants/${v.id}`, { availability: 'out_of_stock' })
        expect(res.statusCode, res.body).toBe(200)
      }
      expect((await tableRow()).availability).toBe('out_of_stock')
      expect((await patch(`${productId}/variants/${large.id}`, { availability: 'on_order' })).statusCode).toBe(200)
      expect((await tableRow()).availability).toBe('on_order')
      expect(await page(`${url}?v=${large.id}`)).toContain('Под заказ')
    })

    it('refuses a bad edit of a variant in Russian, writing nothing', async () => {
      const [small, middle] = (await tableRow()).variants
      const before = await stored()
      const cases: [string, unknown, number, RegExp][] = [
        [`${productId}/variants/${small.id}`, { price: 'дорого' }, 400, /Цена: сумма в рублях/],
        [`${productId}/variants/${small.id}`, { price: -5 }, 400, /Цена: сумма в рублях от 0/],
        [`${productId}/variants/${small.id}`, { price: 12.345 }, 400, /не более 2 знаков/],
        [`${productId}/variants/${small.id}`, { availability: 'soon' }, 400, /Выберите наличие/],
        [`${productId}/variants/${small.id}`, {}, 400, /Нечего сохранить/],
        [
          `${productId}/variants/${middle.id}`,
          { price: 100, oldPrice: 90 },
          400,
          /Старая цена должна быть больше цены/,
        ],
        [`${productId}/variants/${middle.id}`, { price: null, oldPrice: 2000 }, 400, /только вместе с ценой/],
        [`${productId}/variants/abc`, { price: 100 }, 400, /Неверный id/],
        [`${productId}/variants/99999999`, { price: 100 }, 404, /Вариант с id = 99999999/],
      ]
      // A variant of another product is not this one's.
      const other = (await list()).find((row) => row.id !== productId)!
      cases.push([`${other.id}/variants/${small.id}`, { price: 100 }, 404, /не найден/])
      for (const [path, payload, status, message] of cases) {
        const res = await patch(path, payload)
        expect(res.statusCode, `${path} ${JSON.stringify(payload)}`).toBe(status)
        expect(res.json().error.message).toMatch(message)
      }
      expect(await stored()).toEqual(before)
      const unauthorised = await t.app.inject({
        method: 'PATCH',
        url: `/api/admin/products/${productId}/variants/${small.id}`,
        payload: { price: 1 },
      })
      expect(unauthorised.statusCode).toBe(401)
    })

    it("refuses the product's own price and availability: its variants set them", async () => {
      const before = await tableRow()
      for (const [payload, message] of [
        [{ price: 100 }, 'Цена задаётся у вариантов'],
        [{ oldPrice: 5000 }, 'Цена задаётся у вариантов'],
        [{ availability: 'in_stock' }, 'Наличие задаётся у вариантов'],
      ] as const) {
        const res = await patch(String(productId), payload)
        expect(res.statusCode).toBe(400)
        expect(res.json().error.message).toContain(message)
      }
      const after = await tableRow()
      expect([after.price, after.availability]).toEqual([before.price, before.availability])
    })

    it("changes the variants' prices and availability on an action on the product, and the product follows", async () => {
      const act = async (action: object, preview = false) => {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/admin/products/actions',
          headers: AUTH,
          payload: { operation: `variants-${Date.now()}`, ids: [productId], action, preview },
        })
        expect(res.statusCode, res.body).toBe(200)
        return res.json().data
      }
      const before = await stored()
      expect((await act({ kind: 'price', amount: 10, keepOldPrice: false }, true)).changes).toBe(1)
      expect(await stored()).toEqual(before)
      expect((await act({ kind: 'price', amount: 10, keepOldPrice: false })).changed).toBe(1)
      const after = await stored()
      expect(after.map((v) => v.price)).toEqual(before.map((v) => Number(v.price) + 1000))
      const lowest = Math.min(...after.map((v) => Number(v.price)))
      expect((await tableRow()).price).toBe(lowest / 100)
      expect(await page(url)).toContain(`от ${(lowest / 100).toLocaleString('ru-RU').replace(/\s/g, ' ')} ₽`)

      expect((await act({ kind: 'availability', availability: 'in_stock' })).changed).toBe(1)
      expect((await stored()).map((v) => v.availability)).toEqual(['in_stock', 'in_stock', 'in_stock'])
      expect((await tableRow()).availability).toBe('in_stock')
      // Nothing left to change: the preview says so.
      expect((await act({ kind: 'availability', availability: 'in_stock' }, true)).changes).toBe(0)
    })

    it("says 1C overwrites the price and stock of a variant 1C sent, as the owner's switches let it", async () => {
      const [small] = await stored()
      await t.app.db
        .insertInto('exchangeRecord')
        .values({ kind: 'product', externalId: 'box-1c', structureId: productId, seenRun: 0 })
        .execute()
      await t.app.db.updateTable('productVariant').set({ externalId: 'size-16' }).where('id', '=', small.id).execute()
      const variants = (await tableRow()).variants
      expect(variants[0].oneC).toEqual(['price', 'stock'])
      // A variant the site made itself is not 1C's.
      expect(variants[1].oneC).toBeNull()
      const off = await t.app.inject({
        method: 'PUT',
        url: '/api/admin/settings',
        headers: AUTH,
        payload: { 'exchange.overwrite.price': 'false' },
      })
      expect(off.statusCode, off.body).toBe(200)
      expect((await tableRow()).variants[0].oneC).toEqual(['stock'])
    })
  })
}
