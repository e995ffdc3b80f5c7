// The product's brand as a section filter (issue 46 item 2, docs/decisions/042-characteristics-and-filters.md,
// "The brand") on SQLite and PostgreSQL: a brand is the product's own field (1C's Изготовитель, the
// price list's «Бренд», the editor's), not a characteristics row, and «Характеристики» lists it once
// products carry one. The owner makes it a filter by values: the section's form offers each brand
// with its count under the other filters, a choice narrows the list beside a characteristic's range,
// another spelling answers 301, a range of brands is refused in Russian, and a product's new brand
// counts at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createProducts, type NewProduct } from '../../server/catalogue/products/product-rows'
import { ADMIN_TOKEN, AUTH } from '../api/helpers'
import { decodeEntities, type TestApp } from '../helpers/build-test-app'
import { generateCatalogue } from '../helpers/catalogue'
import { sendRecord } from '../helpers/multipart'
import { DIALECTS } from '../helpers/dialects'

const BRANDS = ['Вихрь', 'Зубр', 'Интерскол']

/** 9 saws: brand i % 3 (the last one none), power 600 + 100·i W. */
function saws(parentId: number): NewProduct[] {
  return Array.from({ length: 9 }, (_, i) => ({
    record: { parentId, title: `Пила ${i}`, urlFull: `/structure/brands-1/saw-${i}`, published: 1, sort: i },
    fields: { price: 5000_00 + i * 100_00, availability: 'in_stock', vendor: i === 8 ? null : BRANDS[i % 3] },
    properties: [{ name: 'Мощность пилы', value: String(600 + 100 * i), unit: 'Вт' }],
  }))
}

for (const dialect of DIALECTS) {
  describe.runIf(dialect.available)(`the brand as a filter on ${dialect.name}`, () => {
    let t: TestApp
    let section = ''
    let brand = 0
    let power = 0
    /** Products with a brand before ours (the demo shop's) */
    let branded = 0
    beforeAll(async () => {
      t = await dialect.build({ ADMIN_TOKEN })
      branded = (await list()).find((c) => c.source === 'vendor')?.products ?? 0
      const made = await generateCatalogue(t.app.db, { sections: 1, products: 0, slug: 'brands' })
      section = made.sections[0].urlFull
      await t.app.writeDoor.write((unit) => createProducts(unit, saws(made.sections[0].id)))
    })
    afterAll(() => t?.close())

    const get = (url: string) => t.app.inject({ url, headers: { 'user-agent': 'Mozilla/5.0 test' } })
    const list = async () =>
      (await t.app.inject({ url: '/api/admin/characteristics', headers: AUTH })).json().data as any[]
    const save = (id: number, filter: string, sort: number, title = 'Бренд') =>
      t.app.inject({
        method: 'PUT',
        url: `/api/admin/characteristics/${id}`,
        headers: AUTH,
        payload: { title, shownUnit: '', shown: true, filter, sort },
      })
    const titles = (html: string) => [...decodeEntities(html).matchAll(/>(Пила \d+)</g)].map((m) => m[1]).sort()
    const count = (html: string, value: string) =>
      Number(new RegExp(`value="${value}"/><span>${value} \\((\\d+)\\)</span>`).exec(decodeEntities(html))?.[1])

    it('lists the brand in «Характеристики» with how many products have one, and refuses it as a range', async () => {
      const row = (await list()).find((c) => c.source === 'vendor')
      expect(row).toMatchObject({ title: 'Бренд', products: branded + 8 })
      brand = row.id
      power = (await list()).find((c) => c.name === 'Мощность пилы').id
      const range = await save(brand, 'range', 0)
      expect(range.statusCode).toBe(400)
      expect(range.json().errors.filter).toBe('Бренд фильтруется по значениям')
      expect((await list()).find((c) => c.id === brand).filter).not.toBe('range')
      expect((await save(brand, 'values', 0, 'Производитель')).statusCode).toBe(200)
      expect((await save(power, 'range', 1, 'Мощность')).statusCode).toBe(200)
    })

    it('offers each brand with its count in the section’s form, and narrows by it beside a range', async () => {
      const plain = await get(section)
      expect(plain.statusCode).toBe(200)
      expect(decodeEntities(plain.body)).toContain('<legend>Производитель</legend>')
      for (const name of BRANDS) expect(count(plain.body, name), name).toBe(name === 'Интерскол' ? 2 : 3)
      const chosen = await get(`${section}?f.${brand}=Вихрь&f.${brand}=Зубр`)
      expect(chosen.statusCode, chosen.headers.location as string).toBe(200)
      expect(titles(chosen.body)).toEqual(['Пила 0', 'Пила 1', 'Пила 3', 'Пила 4', 'Пила 6', 'Пила 7'])
      // Power 900 W and up: saws 3 … 8; their brands: Вихрь 3, 6; Зубр 4, 7; Интерскол 5 (8 has none).
      const both = await get(`${section}?f.${brand}=Вихрь&r.${power}=900-`)
      expect(titles(both.body)).toEqual(['Пила 3', 'Пила 6'])
      expect(count(both.body, 'Вихрь')).toBe(2)
      expect(count(both.body, 'Зубр')).toBe(2)
      expect(count(both.body, 'Интерскол')).toBe(1)
      expect(both.body).toMatch(new RegExp(`<link rel="canonical" href="[^"]*${section}"`))
    })

    it('answers another spelling with a 301, and drops a brand given as a range', async () => {
      const cases: [string, string][] = [
        [
          `?f.${brand}=Зубр&f.${brand}=Вихрь&f.${brand}=Зубр`,
          `?f.${brand}=${encodeURIComponent('Вихрь')}&f.${brand}=${encodeURIComponent('Зубр')}`,
        ],
        [`?r.${brand}=1-2`, ''],
      ]
      for (const [from, to] of cases) {
        const res = await get(section + encodeURI(from))
        expect(res.statusCode, from).toBe(301)
        expect(res.headers.location, from).toBe(section + to)
      }
    })

    it('counts a product’s new brand at once (the editor’s field)', async () => {
      const structureId = Number(
        (await t.app.db.selectFrom('structure').select('id').where('title', '=', 'Пила 8').executeTakeFirstOrThrow())
          .id,
      )
      const res = await sendRecord(t.app, AUTH, 'PATCH', '/api/product', { structureId, vendor: 'Зубр' })
      expect(res.statusCode, res.body).toBe(200)
      const after = await get(`${section}?f.${brand}=Зубр`)
      expect(titles(after.body)).toEqual(['Пила 1', 'Пила 4', 'Пила 7', 'Пила 8'])
      expect((await list()).find((c) => c.id === brand).products).toBe(branded + 9)
    })
  })
}
