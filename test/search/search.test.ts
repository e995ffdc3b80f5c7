// The catalogue search on SQLite and PostgreSQL (issue 22, docs/decisions/030-search.md): one suite,
// the same answers on both. Inflected forms, ё, the last word as a prefix, every word required, an
// артикул in any form first, a typo corrected on zero hits, unpublished records never found, and a
// write or a delete seen by the next search.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fillMissingSearchIndex } from '../../server/catalogue/search/search-index'
import { DIALECTS } from '../helpers/dialects'
import type { TestApp } from '../helpers/build-test-app'
import { ADMIN_TOKEN, AUTH } from '../api/helpers'
import { PRODUCTS, SECTION_URL, write, writeCatalogue } from './search-helpers'

for (const dialect of DIALECTS) {
  describe.runIf(dialect.available)(`the catalogue search on ${dialect.name}`, () => {
    let t: TestApp
    let ids: Awaited<ReturnType<typeof writeCatalogue>>

    beforeAll(async () => {
      t = await dialect.build({ ADMIN_TOKEN })
      ids = await writeCatalogue(t)
    })
    afterAll(() => t?.close())

    const find = (q: string, page = 1) => t.app.catalogueSearch.find(q, page)
    const titles = async (q: string) => (await find(q)).products.map((p) => p.title)

    it('finds a product by another form of its words («холодильника» → «Холодильники», «дрель» → «Дрели»)', async () => {
      expect(await titles('холодильника')).toContain(PRODUCTS.fridge.title)
      expect(await titles('дрель')).toContain(PRODUCTS.drill.title)
      expect(await titles('дрель')).toContain('Дрель ударная 750 Вт')
      expect(await titles('ДРЕЛЬ ручная')).toEqual([PRODUCTS.drill.title])
    })

    it('reads ё as е both ways («ёлка» → «елка», «ежик» → «Ёжик»)', async () => {
      expect(await titles('ёлка')).toEqual([PRODUCTS.tree.title])
      expect(await titles('ежик')).toEqual([PRODUCTS.hedgehog.title])
    })

    it('takes the last word as the beginning of a word, the others whole', async () => {
      expect(await titles('холоди')).toContain(PRODUCTS.fridge.title)
      expect(await titles('дрели зу')).toEqual([PRODUCTS.drill.title])
      expect(await titles('зу дрели')).toEqual([])
    })

    it('needs every word: two products with one word each are not a match', async () => {
      expect(await titles('дрели бирюса')).toEqual([])
    })

    it('puts title matches before products that only mention the word', async () => {
      expect(await titles('холодильник')).toEqual([PRODUCTS.fridge.title, PRODUCTS.shelf.title])
      expect(await titles('бирюса')).toEqual([PRODUCTS.fridge.title, PRODUCTS.shelf.title])
    })

    it('finds an артикул typed in any form, first', async () => {
      for (const q of ['ABC-123/45', 'abc12345', 'АВС12345', 'abc 123 45', 'abc-123']) {
        expect((await titles(q))[0], q).toBe(PRODUCTS.fridge.title)
      }
      for (const q of ['зб5005', 'ЗБ-5005', 'зб 5005']) expect(await titles(q), q).toEqual([PRODUCTS.drill.title])
      // The demo shop's «ЭИ-1003» is the grinder's
      expect(await titles('эи1003')).toEqual(['Углошлифовальная машина 125 мм'])
    })

    it('forgives one typo when nothing is found, and says what it searched instead', async () => {
      const answer = await find('холодильнек')
      expect(answer.suggestion).toMatch(/^холодильник/)
      expect(answer.products.map((p) => p.title)).toContain(PRODUCTS.fridge.title)
      const drill = await find('дрелт зубр')
      expect(drill.suggestion).toMatch(/^дрел\S* зубр$/)
      expect(drill.products.map((p) => p.title)).toEqual([PRODUCTS.drill.title])
      // Three letters are too few to guess from; two typos in a short word are too many.
      expect((await find('зуп')).suggestion).toBeNull()
      expect((await find('дркнь')).products).toEqual([])
      // A query that finds something is not corrected.
      expect((await find('дрели зубр')).suggestion).toBeNull()
    })

    it('never finds a draft or a withdrawn product', async () => {
      expect(await titles('тайный черновик')).toEqual([])
      expect(await titles('снятый навсегда')).toEqual([])
      expect(await titles('холодильник')).not.toContain(PRODUCTS.draft.title)
    })

    it('marks the matched words of each title', async () => {
      const [card] = (await find('холодильника бир')).products
      expect(card.titleParts).toEqual([
        { text: 'Холодильники', mark: true },
        { text: ' ', mark: false },
        { text: 'Бирюса', mark: true },
        { text: ' 118', mark: false },
      ])
    })

    it('sees a write and a delete at once', async () => {
      await write(t, 'PATCH', { id: ids.tree, title: 'Искусственная сосна 180 см' })
      expect(await titles('сосны')).toEqual(['Искусственная сосна 180 см'])
      expect(await titles('елка')).toEqual([])
      await write(t, 'PATCH', { id: ids.hedgehog, published: false })
      expect(await titles('ежик')).toEqual([])
      const del = await t.app.inject({ method: 'DELETE', url: `/api/structure?id=${ids.tree}`, headers: AUTH })
      expect(del.statusCode, del.body).toBeLessThan(300)
      expect(await titles('сосна')).toEqual([])
      // The vocabulary forgets a word no record uses: no suggestion leads to it.
      const left = await t.app.db.selectFrom('searchWord').select('token').where('token', '=', 'сосн').execute()
      expect(left).toEqual([])
    })

    it('pages by 24 across title matches and mentions, and says whether there is more', async () => {
      const many = Array.from({ length: 26 }, (_, i) => i)
      // Three that only mention the word, written first: they still come after every title match.
      const mentions = Array.from({ length: 3 }, (_, i) => i)
      for (const i of mentions) {
        await write(t, 'POST', {
          parentId: ids.section,
          typeId: 'product',
          title: `Глобус настольный ${i}`,
          urlFull: `${SECTION_URL}globus-${i}`,
          product: { article: null, price: 10, description: 'Продаётся без подставки' },
        })
      }
      for (const i of many) {
        await write(t, 'POST', {
          parentId: ids.section,
          typeId: 'product',
          // A word no demo record has (the demo's «Крепёж» sells nails)
          title: `Подставка для глобуса ${i}`,
          urlFull: `${SECTION_URL}podstavka-${i}`,
          product: { article: null, price: 10, description: null },
        })
      }
      const first = await find('подставки')
      expect(first.products).toHaveLength(24)
      expect(first.hasNext).toBe(true)
      const second = await find('подставки', 2)
      expect(second.products).toHaveLength(5)
      expect(second.hasNext).toBe(false)
      const all = [...first.products, ...second.products]
      expect(new Set(all.map((p) => p.id)).size).toBe(29)
      expect(all.slice(26).map((p) => p.title)).toEqual(mentions.map((i) => `Глобус настольный ${i}`))
      expect(all.slice(0, 26).every((p) => p.title.startsWith('Подставка'))).toBe(true)
    })

    it('indexes at start what has no index rows (a database from before the search)', async () => {
      await t.app.db.deleteFrom('searchIndex').execute()
      await t.app.db.deleteFrom('searchWord').execute()
      expect(await titles('дрели зубр')).toEqual([])
      expect(await fillMissingSearchIndex(t.app.db)).toBeGreaterThan(10)
      expect(await titles('дрели зубр')).toEqual([PRODUCTS.drill.title])
      expect((await find('дрелт зубр')).suggestion).toMatch(/^дрел\S* зубр$/)
    })

    it('refuses a query over 200 characters unsearched, and cuts one of more than 8 words', async () => {
      expect((await find('а'.repeat(201))).state).toBe('too_long')
      const cut = await find('дрели ручные зубр раз два три четыре пять шесть')
      expect(cut.cut).toBe(true)
      expect((await find('   ')).state).toBe('empty')
      expect((await find('--- ///')).state).toBe('empty')
    })
  })
}
