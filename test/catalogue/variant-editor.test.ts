// The editor and the model API with a product's variants (docs/decisions/043-variants.md), on
// SQLite and PostgreSQL: the demo tool box's price and availability are its sizes', so the editor's
// save (PATCH /api/structure with the product part) and PATCH /api/product refuse a change of them
// with «Товары»' Russian reason, naming the field, and write nothing; the whole row sent back as
// stored, or a save without them (what the editor sends for such a product), passes; the editor's
// mark says how many variants it has. The model API reads a product's own characteristics without
// its variants' option values, and reads and writes its variants as the structure record's list
// `variants` (the content export's way, decision 043): a variant found again by its артикул keeps
// its id, one left out is removed, the product's price follows; a bad list, or variants of a
// record without a product, are refused in Russian with nothing written.
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

    const read = async (select: object) =>
      (
        await t.app.inject({
          url: `/api/structure?query=${encodeURIComponent(JSON.stringify({ where: { id: { equals: id } }, select }))}`,
          headers: AUTH,
        })
      ).json().data
    const VARIANTS = { variants: { select: { title: true, article: true, price: true, oldPrice: true, options: {} } } }

    it('reads the product’s own characteristics without its variants’ option values', async () => {
      const { properties, variants } = await read({ properties: {}, ...VARIANTS })
      expect(properties.map((p: { name: string }) => p.name)).not.toContain('Размер')
      expect(variants).toHaveLength(3)
      expect(variants[0].options).toEqual([expect.objectContaining({ name: 'Размер', value: '16"' })])
    })

    it('writes the variants as a list: found again by артикул, the rest removed, the price following', async () => {
      const before = await stored()
      const { variants } = await read(VARIANTS)
      const res = await write('structure', {
        id,
        variants: [
          { ...variants[1], price: 0.5, oldPrice: 1, options: [{ name: 'Размер', value: '19"' }] },
          { title: 'Малый', article: 'РИ-3006-10', price: 990.1, availability: 'on_order' },
        ],
      })
      expect(res.statusCode, res.body).toBe(200)
      const after = await stored()
      expect(after.variants.map((v) => [v.id, v.price, v.availability])).toEqual([
        [before.variants[1].id, 50, 'in_stock'],
        [expect.any(Number), 99010, 'on_order'],
      ])
      expect(after.product).toMatchObject({ price: 50, oldPrice: 100, availability: 'in_stock' })
      expect((await read(VARIANTS)).variants[1]).toMatchObject({ title: 'Малый', price: 990.1, options: [] })
    })

    it('refuses a bad list, or variants of a record that is no product, writing nothing', async () => {
      const before = await stored()
      const section = (
        await t.app.db.selectFrom('structure').select('id').where('typeId', '=', 'section').executeTakeFirstOrThrow()
      ).id
      for (const [data, field, message] of [
        [{ id, variants: [{ title: 'А', price: 10, oldPrice: 10 }] }, 'variants.0.oldPrice', /больше цены/],
        [{ id, variants: [{ title: 'А', oldPrice: 10 }] }, 'variants.0.oldPrice', /только вместе с ценой/],
        [{ id, variants: [{ title: 'А' }, { title: 'А' }] }, 'variants.1.title', /указан дважды/],
        [{ id, variants: [{ title: 'А', price: -1 }] }, 'variants.0.price', /./],
        [{ id: section, variants: [{ title: 'А' }] }, 'variants', /только у товара/],
      ] as const) {
        const res = await write('structure', data)
        expect(res.statusCode, res.body).toBe(400)
        expect(res.json().errors[field], JSON.stringify(data)).toMatch(message)
      }
      expect(await stored()).toEqual(before)
    })
  })
}
