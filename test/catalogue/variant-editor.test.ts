// The editor and the model API with a product's variants (docs/decisions/043-variants.md), on
// SQLite and PostgreSQL: the demo tool box's price and availability are its sizes', so the editor's
// save (PATCH /api/structure with the product part) and PATCH /api/product refuse a change of them
// with «Товары»' Russian reason, naming the field, and write nothing; the whole row sent back as
// stored, or a save without them (what the editor sends for such a product), passes; the editor's
// mark says how many variants it has.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FOLLOWS_VARIANTS } from '../../src/catalogue/variant-fields'
import { ADMIN_TOKEN, AUTH } from '../api/helpers'
import type { TestApp } from '../helpers/build-test-app'
import { DIALECTS } from '../helpers/dialects'
import { multipartBody } from '../helpers/multipart'

for (const dialect of DIALECTS) {
  describe.runIf(dialect.available)(`the editor's save of a product with variants on ${dialect.name}`, () => {
    let t: TestApp
    let id = 0
    beforeAll(async () => {
      t = await dialect.build({ ADMIN_TOKEN })
      id = (
        await t.app.db
          .selectFrom('structure')
          .select('id')
          .where('title', '=', 'Ящик для инструмента')
          .executeTakeFirstOrThrow()
      ).id
    })
    afterAll(() => t?.close())

    const write = (model: 'structure' | 'product', data: object) => {
      const body = multipartBody({ data: JSON.stringify(data) })
      return t.app.inject({
        method: 'PATCH',
        url: `/api/${model}`,
        payload: body.payload,
        headers: { ...body.headers, ...AUTH },
      })
    }
    const stored = async () => ({
      product: await t.app.db
        .selectFrom('product')
        .innerJoin('structure', 'structure.id', 'product.structureId')
        .select(['product.price', 'product.oldPrice', 'product.availability', 'product.description', 'structure.title'])
        .where('structureId', '=', id)
        .executeTakeFirstOrThrow(),
      variants: await t.app.db
        .selectFrom('productVariant')
        .select(['id', 'price', 'oldPrice', 'availability'])
        .where('productId', '=', id)
        .orderBy('id')
        .execute(),
    })

    it('tells the editor how many variants set the product’s price', async () => {
      const mark = await t.app.inject({ url: `/api/admin/products/${id}/one-c`, headers: AUTH })
      expect(mark.json()).toEqual({ data: { oneC: null, variants: 3 } })
    })

    it('refuses the editor’s change of the price, old price or availability, in Russian, writing nothing', async () => {
      const before = await stored()
      const rubles = Number(before.product.price) / 100
      for (const [product, field, message] of [
        [{ price: rubles + 1 }, 'product.price', FOLLOWS_VARIANTS.price],
        [{ price: rubles, oldPrice: rubles + 500 }, 'product.oldPrice', FOLLOWS_VARIANTS.price],
        [{ availability: 'out_of_stock' }, 'product.availability', FOLLOWS_VARIANTS.availability],
      ] as const) {
        const res = await write('structure', {
          id,
          title: 'Ящик, переименован',
          product: { ...product, description: 'Новое.' },
        })
        expect(res.statusCode, res.body).toBe(400)
        expect(res.json().error.message).toBe(message)
        expect(res.json().errors).toEqual({ [field]: message })
      }
      expect(await stored()).toEqual(before)
    })

    it('refuses it through PATCH /api/product too', async () => {
      const before = await stored()
      const res = await write('product', { structureId: id, price: 1 })
      expect(res.statusCode, res.body).toBe(400)
      expect(res.json().errors).toEqual({ price: FOLLOWS_VARIANTS.price })
      expect(await stored()).toEqual(before)
    })

    it('saves the rest: without the price fields, or with them as stored', async () => {
      const before = await stored()
      const saved = await write('structure', {
        id,
        title: 'Ящик для инструмента',
        product: { description: 'Прочный.' },
      })
      expect(saved.statusCode, saved.body).toBe(200)
      const same = await write('product', {
        structureId: id,
        price: Number(before.product.price) / 100,
        oldPrice: before.product.oldPrice === null ? null : Number(before.product.oldPrice) / 100,
        availability: before.product.availability,
        featured: true,
      })
      expect(same.statusCode, same.body).toBe(200)
      const after = await stored()
      expect(after.product).toEqual({ ...before.product, description: 'Прочный.' })
      expect(after.variants).toEqual(before.variants)
    })
  })
}
