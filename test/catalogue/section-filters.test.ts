// Filters by characteristic in sections (issue 46 item 2, docs/decisions/042-characteristics-and-filters.md)
// on SQLite and PostgreSQL: the owner makes «Бренд» a filter by values and «Мощность» one by range;
// the section's GET form offers each value with its count and the range's two fields; several
// filters at once narrow the list, each value's count is under the other filters; one canonical
// spelling per combination (301 for another, unknown or wrong-kind filters dropped, other
// parameters kept); the canonical link of a filtered list is the section; and filtered lists live
// in the page cache's bounded part (a flood of them leaves the plain pages kept).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createProducts, type NewProduct } from '../../server/catalogue/products/product-rows'
import { ADMIN_TOKEN, AUTH } from '../api/helpers'
import { decodeEntities, type TestApp } from '../helpers/build-test-app'
import { generateCatalogue } from '../helpers/catalogue'
import { DIALECTS } from '../helpers/dialects'

const BRANDS = ['Bosch', 'Makita', 'Интерскол']

/** 12 drills: brand i % 3, power 500 + 100·i W (500 … 1500), weight «1,i» kg; every 4th has no power. */
function drills(parentId: number): NewProduct[] {
  return Array.from({ length: 12 }, (_, i) => ({
    record: { parentId, title: `Дрель ${i}`, urlFull: `/structure/filters-1/drill-${i}`, published: 1, sort: i },
    fields: { price: (1000 + i * 100) * 100, availability: 'in_stock' },
    properties: [
      { name: 'Бренд', value: BRANDS[i % 3] },
      ...(i % 4 === 3 ? [] : [{ name: 'Мощность', value: String(500 + 100 * i), unit: 'Вт' }]),
      { name: 'Вес', value: `1,${i}`, unit: 'кг' },
    ],
  }))
}

for (const dialect of DIALECTS) {
  describe.runIf(dialect.available)(`filters by characteristic in sections on ${dialect.name}`, () => {
    let t: TestApp
    let section = ''
    const ids: Record<string, number> = {}
    beforeAll(async () => {
      t = await dialect.build({ ADMIN_TOKEN, PAGE_CACHE_MB: '1' })
      const made = await generateCatalogue(t.app.db, { sections: 1, products: 0, slug: 'filters' })
      section = made.sections[0].urlFull
      await t.app.writeDoor.write((unit) => createProducts(unit, drills(made.sections[0].id)))
      const list = (await t.app.inject({ url: '/api/admin/characteristics', headers: AUTH })).json().data as any[]
      // The demo shop has a «Мощность» in «л. с.» too: ours is in «Вт».
      for (const c of list) if (!(c.name in ids) || c.unit === 'Вт') ids[c.name] = c.id
      const save = (name: string, title: string, shownUnit: string, filter: string, sort: number) =>
        t.app.inject({
          method: 'PUT',
          url: `/api/admin/characteristics/${ids[name]}`,
          headers: AUTH,
          payload: { title, shownUnit, shown: true, filter, sort },
        })
      expect((await save('Бренд', 'Бренд', '', 'values', 0)).statusCode).toBe(200)
      expect((await save('Мощность', 'Мощность', 'Вт', 'range', 1)).statusCode).toBe(200)
    })
    afterAll(() => t?.close())

    const get = (url: string) => t.app.inject({ url, headers: { 'user-agent': 'Mozilla/5.0 test' } })
    const found = (html: string) => Number(/Найдено товаров: (?:<!-- -->)?(\d+)/.exec(decodeEntities(html))?.[1])
    const titles = (html: string) => [...decodeEntities(html).matchAll(/>(Дрель \d+)</g)].map((m) => m[1])
    const count = (html: string, value: string) =>
      Number(new RegExp(`value="${value}"/><span>${value} \\((\\d+)\\)</span>`).exec(decodeEntities(html))?.[1])

    it('offers each value with its count and the range’s fields in the section’s GET form', async () => {
      const res = await get(section)
      expect(res.statusCode).toBe(200)
      const html = decodeEntities(res.body)
      expect(html).toContain('<legend>Бренд</legend>')
      expect(html).toContain('<legend>Мощность, Вт</legend>')
      for (const brand of BRANDS) expect(count(res.body, brand), brand).toBe(4)
      expect(html.match(new RegExp(`name="r\\.${ids['Мощность']}"`, 'g'))).toHaveLength(2)
      expect(html).toContain('placeholder="500"')
      expect(html).toContain('placeholder="1500"')
      // «Вес» is no filter.
      expect(html).not.toContain('<legend>Вес')
    })

    it('narrows by several filters at once; each value counts under the other filters', async () => {
      const power = ids['Мощность']
      const brand = ids['Бренд']
      const url = `${section}?f.${brand}=Bosch&f.${brand}=Makita&r.${power}=700-1300`
      const res = await get(url)
      expect(res.statusCode, res.headers.location as string).toBe(200)
      // Power 700…1300: drills 2…8 without 3 and 7 (no power): 2, 4, 5, 6, 8; Bosch (i%3=0) or Makita (1): 4, 6.
      expect(titles(res.body).sort()).toEqual(['Дрель 4', 'Дрель 6'])
      expect(found(res.body)).toBe(2)
      // Under the range alone: Bosch 6; Makita 4; Интерскол 2, 5, 8.
      expect(count(res.body, 'Bosch')).toBe(1)
      expect(count(res.body, 'Makita')).toBe(1)
      expect(count(res.body, 'Интерскол')).toBe(3)
      expect(res.body).toMatch(new RegExp(`<link rel="canonical" href="[^"]*${section}"`))
      const none = await get(`${section}?r.${power}=5000-`)
      expect(found(none.body)).toBe(0)
      expect(decodeEntities(none.body)).toContain('Ничего не найдено')
    })

    it('answers every other spelling with a 301 to the canonical one', async () => {
      const power = ids['Мощность']
      const brand = ids['Бренд']
      const cases: [string, string][] = [
        // The form's two fields of one name become one min-max; an empty side stays open.
        [`?r.${power}=700&r.${power}=1300`, `?r.${power}=700-1300`],
        [`?r.${power}=&r.${power}=1300`, `?r.${power}=-1300`],
        [`?r.${power}=1300-700`, `?r.${power}=700-1300`],
        [`?r.${power}=&r.${power}=`, ''],
        // Values sorted and once each; names in code unit order.
        [`?f.${brand}=Makita&f.${brand}=Bosch&f.${brand}=Bosch`, `?f.${brand}=Bosch&f.${brand}=Makita`],

        // Not a filter, a filter of the other kind, an unknown id: dropped; other parameters kept.
        [`?f.${ids['Вес']}=1,2&utm_source=x`, '?utm_source=x'],
        [`?f.${power}=800`, ''],
        [`?r.${brand}=1-2`, ''],
        ['?f.999999=x', ''],
      ]
      for (const [from, to] of cases) {
        const res = await get(section + from)
        expect(res.statusCode, from).toBe(301)
        expect(res.headers.location, from).toBe(section + to)
      }
      // Names in another order are the same page (the page cache sorts its keys: decision 031).
      expect((await get(`${section}?sort=price&f.${brand}=Bosch&avail=in_stock`)).statusCode).toBe(200)
      // And on a product page these parameters are redirected away.
      const product = await get(`${section}drill-1?f.${brand}=Bosch`)
      expect(product.statusCode).toBe(301)
      expect(product.headers.location).toBe(`${section}drill-1`)
    })

    it('keeps filtered lists in the page cache’s bounded part: a flood of them leaves the plain pages kept', async () => {
      const power = ids['Мощность']
      const plain = ['/', section]
      for (const url of plain) expect((await get(url)).statusCode).toBe(200)
      for (const url of plain) expect((await get(url)).headers['x-vitrina-cache'], url).toBe('hit')
      const filtered = `${section}?f.${ids['Бренд']}=Bosch&r.${power}=500-900`
      expect((await get(filtered)).statusCode).toBe(200)
      expect((await get(filtered)).headers['x-vitrina-cache']).toBe('hit')
      for (let i = 0; i < 60; i++) expect((await get(`${section}?r.${power}=${i}-${2000 + i}`)).statusCode).toBe(200)
      for (const url of plain) expect((await get(url)).headers['x-vitrina-cache'], url).toBe('hit')
    })

    it('shows a choice of the owner at once: a characteristic no longer a filter leaves the form', async () => {
      expect((await get(section)).headers['x-vitrina-cache']).toBe('hit')
      const res = await t.app.inject({
        method: 'PUT',
        url: `/api/admin/characteristics/${ids['Бренд']}`,
        headers: AUTH,
        payload: { title: 'Бренд', shownUnit: '', shown: true, filter: 'none', sort: 0 },
      })
      expect(res.statusCode).toBe(200)
      const after = await get(section)
      expect(after.headers['x-vitrina-cache']).toBe('miss')
      expect(decodeEntities(after.body)).not.toContain('<legend>Бренд</legend>')
      expect((await get(`${section}?f.${ids['Бренд']}=Bosch`)).statusCode).toBe(301)
    })
  })
}
