// The demo shop's section with filters worth using (issue 46; docs/decisions/042-characteristics-and-filters.md),
// on SQLite and PostgreSQL: the seed makes the products' brand and the power tools' «Тип питания»
// and «Цвет» filters by values and «Мощность, Вт» and «Масса, кг» by range, in that order, as the
// owner would in «Характеристики»; «Электроинструмент» offers them with their counts, a brand, two
// colours and a power range narrow it, and the counts follow; sections whose products lack them
// offer none (the garden's, the brand alone).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_TOKEN, AUTH } from '../api/helpers'
import { decodeEntities, type TestApp } from '../helpers/build-test-app'
import { DIALECTS } from '../helpers/dialects'

const SECTION = '/structure/power-tools/'

for (const dialect of DIALECTS) {
  describe.runIf(dialect.available)(`the demo shop’s filters on ${dialect.name}`, () => {
    let t: TestApp
    const ids: Record<string, number> = {}
    beforeAll(async () => {
      t = await dialect.build({ ADMIN_TOKEN })
    })
    afterAll(() => t?.close())

    const get = async (url: string) => {
      const res = await t.app.inject({ url, headers: { 'user-agent': 'Mozilla/5.0 test' } })
      expect(res.statusCode, url).toBe(200)
      return decodeEntities(res.body)
    }
    const legends = (html: string) => [...html.matchAll(/<legend>([^<]+)<\/legend>/g)].map((m) => m[1])
    const counts = (html: string, id: number) =>
      Object.fromEntries(
        [
          ...html.matchAll(
            new RegExp(`name="f\\.${id}"[^>]* value="([^"]+)"[^>]*/><span>[^<]+ \\((\\d+)\\)</span>`, 'g'),
          ),
        ].map((m) => [m[1], Number(m[2])]),
      )
    const titles = (html: string) => [...html.matchAll(/class="card__title"[^>]*>([^<]+)</g)].map((m) => m[1]).sort()

    it('makes the brand and four of the power tools’ characteristics filters, in the owner’s order', async () => {
      const res = await t.app.inject({ url: '/api/admin/characteristics', headers: AUTH })
      expect(res.statusCode).toBe(200)
      const filters = (res.json().data as any[]).filter((c) => c.filter !== 'none')
      expect(filters.map((c) => [c.title, c.shownUnit, c.filter, c.sort])).toEqual([
        ['Бренд', '', 'values', 0],
        ['Тип питания', '', 'values', 1],
        ['Мощность', 'Вт', 'range', 2],
        ['Цвет', '', 'values', 3],
        ['Масса', 'кг', 'range', 4],
      ])
      for (const c of filters) ids[c.title] = c.id
    })

    it('offers them in «Электроинструмент» with each value’s count and each range’s bounds', async () => {
      const html = await get(SECTION)
      expect(legends(html)).toEqual(['Бренд', 'Тип питания', 'Мощность, Вт', 'Цвет', 'Масса, кг'])
      expect(counts(html, ids['Бренд'])).toEqual({ 'Мастер Про': 4, Вихрь: 3, Термит: 1 })
      expect(counts(html, ids['Тип питания'])).toEqual({ сеть: 6, аккумулятор: 2 })
      expect(counts(html, ids['Цвет'])).toEqual({ синий: 3, зелёный: 2, оранжевый: 2, красный: 1 })
      expect(html).toMatch(new RegExp(`placeholder="650" name="r\\.${ids['Мощность']}"`))
      expect(html).toMatch(new RegExp(`placeholder="2000" name="r\\.${ids['Мощность']}"`))
      expect(html).toMatch(new RegExp(`placeholder="0,7" name="r\\.${ids['Масса']}"`))
      expect(html).toMatch(new RegExp(`placeholder="4,3" name="r\\.${ids['Масса']}"`))
      expect(html).toContain('Найдено товаров: <!-- -->8')
    })

    it('narrows by two colours and a power range, and counts each value under the other filters', async () => {
      const colour = ids['Цвет']
      const html = await get(`${SECTION}?f.${colour}=зелёный&f.${colour}=синий&r.${ids['Мощность']}=700-1500`)
      expect(titles(html)).toEqual([
        'Перфоратор SDS-plus 800 Вт',
        'Пила циркулярная 1400 Вт',
        'Углошлифовальная машина 125 мм',
      ])
      expect(html).toContain('Найдено товаров: <!-- -->3')
      // Colours under the power range alone: the drill (750 W) is orange; the heat gun (2000 W) is out.
      expect(counts(html, colour)).toEqual({ зелёный: 2, синий: 1, оранжевый: 1 })
      expect(counts(html, ids['Тип питания'])).toEqual({ сеть: 3 })
    })

    it('narrows by a brand beside a colour, and counts the brands under the colour', async () => {
      const brand = ids['Бренд']
      const html = await get(
        `${SECTION}?f.${brand}=${encodeURIComponent('Вихрь')}&f.${ids['Цвет']}=${encodeURIComponent('оранжевый')}`,
      )
      expect(titles(html)).toEqual(['Лобзик электрический 650 Вт'])
      // Orange: the jigsaw (Вихрь) and the impact drill (Мастер Про).
      expect(counts(html, brand)).toEqual({ Вихрь: 1, 'Мастер Про': 1 })
    })

    it('offers no filter in a section whose products carry none of them, the brand where they have one', async () => {
      expect(legends(await get('/structure/garden/'))).toEqual(['Бренд'])
      expect(legends(await get('/structure/hand-tools/'))).toEqual([])
    })
  })
}
