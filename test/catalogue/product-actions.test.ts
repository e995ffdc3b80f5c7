// «Товары»'s actions do what docs/contract.md §2 and §7 promise, on SQLite and PostgreSQL (issue 43,
// leftovers): moved products are listed in their new section and their old URLs answer 301 to the
// new ones; withdrawn ones answer 410 until published again; deleted ones are gone with 410, but a
// product with a record under it is not deleted; a price changed by an amount or a percent is whole
// rubles and never below 0, and an old price shows only while it is above the price; a request of
// more than 200 ids is refused with a Russian field error and changes nothing; «все по фильтру»
// gives at most 20,000 ids, with `more` past them.
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_TOKEN, AUTH } from '../api/helpers'
import type { TestApp } from '../helpers/build-test-app'
import { generateCatalogue } from '../helpers/catalogue'
import { DIALECTS } from '../helpers/dialects'
import { sendRecord } from '../helpers/multipart'

interface Row {
  id: number
  title: string
  urlFull: string
  sectionId: number
  price: number | null
  oldPrice: number | null
  state: string
}

for (const dialect of DIALECTS) {
  describe.runIf(dialect.available)(`«Товары»'s actions on ${dialect.name}`, () => {
    let t: TestApp
    beforeAll(async () => {
      t = await dialect.build({ ADMIN_TOKEN })
    })
    afterAll(async () => {
      await t?.close()
    })

    const get = async (url: string) => {
      const res = await t.app.inject({ url, headers: AUTH })
      expect(res.statusCode, res.body).toBe(200)
      return res.json()
    }
    /** Every row «Товары» shows for a query, page by page. */
    const rows = async (query = ''): Promise<Row[]> => {
      const out: Row[] = []
      let after: string | null = null
      do {
        const page = await get(`/api/admin/products?pageSize=100&${query}${after ? `&after=${after}` : ''}`)
        out.push(...page.data)
        after = page.next
      } while (after)
      return out
    }
    const rowAt = async (url: string) => (await rows()).find((row) => row.urlFull === url)
    const sectionId = async (url: string): Promise<number> =>
      (await get('/api/admin/products/sections')).data.find((s: { urlFull: string }) => s.urlFull === url).id
    const act = (ids: readonly unknown[], action: Record<string, unknown>) =>
      t.app.inject({
        method: 'POST',
        url: '/api/admin/products/actions',
        headers: AUTH,
        payload: { operation: randomUUID(), ids, action },
      })
    const changed = async (ids: readonly number[], action: Record<string, unknown>) => {
      const res = await act(ids, action)
      expect(res.statusCode, res.body).toBe(200)
      return res.json().data.changed as number
    }
    const page = (url: string) => t.app.inject({ url, headers: { 'user-agent': 'Mozilla/5.0 test' } })
    const setPrices = (id: number, price: number | null, oldPrice: number | null) =>
      t.app.inject({ method: 'PATCH', url: `/api/admin/products/${id}`, headers: AUTH, payload: { price, oldPrice } })

    it('moves products: listed in the new section, their old URLs answer 301 to the new ones', async () => {
      const from = '/structure/power-tools/'
      const to = '/structure/garden/'
      const moving = [await rowAt(`${from}jigsaw`), await rowAt(`${from}angle-grinder`)] as Row[]
      const garden = await sectionId(to)
      // Not into a product: a field error, nothing moves.
      const refused = await act([moving[0].id], { kind: 'move', sectionId: moving[1].id })
      expect(refused.statusCode).toBe(400)
      expect(refused.json().errors.sectionId).toBe('Выберите раздел')
      expect((await page(moving[0].urlFull)).statusCode).toBe(200)

      expect(
        await changed(
          moving.map((row) => row.id),
          { kind: 'move', sectionId: garden },
        ),
      ).toBe(2)
      const listed = await rows(`section=${garden}`)
      for (const before of moving) {
        const now = listed.find((row) => row.id === before.id)
        expect(now).toMatchObject({ sectionId: garden, urlFull: before.urlFull.replace(from, to) })
        const old = await page(before.urlFull)
        expect([old.statusCode, old.headers.location]).toEqual([301, now!.urlFull])
        expect((await page(now!.urlFull)).statusCode).toBe(200)
      }
      expect((await page(to)).body).toContain(`${to}jigsaw`)
      expect((await page(from)).body).not.toContain(`${from}jigsaw`)
    })

    it('withdraws products: 410 and «снят» in «Товары» until published again', async () => {
      const product = (await rowAt('/structure/garden/trimmer'))!
      expect(await changed([product.id], { kind: 'withdraw' })).toBe(1)
      expect((await page(product.urlFull)).statusCode).toBe(410)
      expect((await rowAt(product.urlFull))!.state).toBe('withdrawn')
      expect((await rows('state=withdrawn')).map((row) => row.id)).toContain(product.id)
      expect(await changed([product.id], { kind: 'publish' })).toBe(1)
      expect((await page(product.urlFull)).statusCode).toBe(200)
      expect((await rowAt(product.urlFull))!.state).toBe('published')
    })

    it('deletes products: gone with 410; a product with a record under it is not deleted', async () => {
      const gone = (await rowAt('/structure/power-tools/circular-saw'))!
      const parent = (await rowAt('/structure/power-tools/rotary-hammer'))!
      const child = await sendRecord(t.app, AUTH, 'POST', '/api/structure', {
        parentId: parent.id,
        typeId: 'page',
        title: 'Инструкция к перфоратору',
        urlFull: `${parent.urlFull}/manual`,
      })
      expect(child.statusCode, child.body).toBe(201)
      expect(await changed([gone.id, parent.id], { kind: 'delete' })).toBe(1)
      expect((await page(gone.urlFull)).statusCode).toBe(410)
      expect(await rowAt(gone.urlFull)).toBeUndefined()
      expect((await page(parent.urlFull)).statusCode).toBe(200)
      expect(await rowAt(parent.urlFull)).toMatchObject({ id: parent.id, state: 'published' })
      // An id that no longer exists changes nothing.
      expect(await changed([gone.id], { kind: 'delete' })).toBe(0)
    })

    it('changes a price by an amount or a percent: to the kopeck or rounded as chosen, never below 0, the old price rule kept', async () => {
      const [a, b, free] = [
        (await rowAt('/structure/power-tools/screwdriver'))!,
        (await rowAt('/structure/garden/lawn-mower'))!,
        (await rows('noPrice=1'))[0],
      ]
      expect(free.price).toBeNull()
      const prices = async () => Promise.all([a, b, free].map(async (row) => (await rowAt(row.urlFull))!))
      const pricesOf = async () => (await prices()).map((row) => [row.price, row.oldPrice])
      expect((await setPrices(a.id, 3100, null)).statusCode).toBe(200)
      expect((await setPrices(b.id, 4200, 4500)).statusCode).toBe(200)

      // −100,000 ₽ gives 0, not a negative price; a product without a price keeps none.
      expect(await changed([a.id, free.id], { kind: 'price', amount: -100_000, keepOldPrice: false })).toBe(1)
      expect((await pricesOf())[0]).toEqual([0, null])
      // With «старая цена — прежняя» the price it had becomes the old one…
      expect((await setPrices(a.id, 3100, null)).statusCode).toBe(200)
      await changed([a.id], { kind: 'price', amount: -100_000, keepOldPrice: true })
      expect((await pricesOf())[0]).toEqual([0, 3100])
      // …but not when the price went up: an old price not above the price would not show.
      expect((await setPrices(a.id, 3100, null)).statusCode).toBe(200)
      await changed([a.id], { kind: 'price', amount: 250, keepOldPrice: true })
      expect((await pricesOf())[0]).toEqual([3350, null])

      // By a percent, rounded to whole rubles; the old price stays while it is above the price.
      await changed([a.id, b.id], { kind: 'price', percent: 5, keepOldPrice: false })
      expect((await pricesOf()).slice(0, 2)).toEqual([
        [Math.round(3350 * 1.05), null],
        [4410, 4500],
      ])
      // Raised past it, the old price goes.
      await changed([b.id], { kind: 'price', percent: 10, keepOldPrice: false })
      expect((await pricesOf())[1]).toEqual([4851, null])
      // −99 % is the lowest step: a ruble is a ruble.
      await changed([b.id], { kind: 'price', percent: -99, keepOldPrice: false })
      expect((await pricesOf())[1]).toEqual([49, null])

      // Kopecks: an amount is added exactly; a percent rounds half up to what the owner chose.
      expect((await setPrices(a.id, 1299.9, null)).statusCode).toBe(200)
      await changed([a.id], { kind: 'price', amount: 0.15, keepOldPrice: false })
      expect((await pricesOf())[0]).toEqual([1300.05, null])
      await changed([a.id], { kind: 'price', percent: 10, rounding: 'kopeck', keepOldPrice: false })
      expect((await pricesOf())[0]).toEqual([1430.06, null]) // 1430.055
      await changed([a.id], { kind: 'price', percent: 0, rounding: 'ten', keepOldPrice: false })
      expect((await pricesOf())[0]).toEqual([1430, null])
      await changed([a.id], { kind: 'price', percent: 2.5, rounding: 'ninety', keepOldPrice: false })
      expect((await pricesOf())[0]).toEqual([1490, null]) // 1465.75 → the nearest …90
      await changed([a.id], { kind: 'price', percent: 0, rounding: 'ninety', keepOldPrice: false })
      expect((await pricesOf())[0]).toEqual([1490, null]) // already ends in 90: unchanged

      // Before it runs, the screen asks how many products the action changes: nothing is written.
      const preview = await t.app.inject({
        method: 'POST',
        url: '/api/admin/products/actions',
        headers: AUTH,
        payload: {
          operation: randomUUID(),
          ids: [a.id, b.id, free.id],
          action: { kind: 'price', percent: 0, rounding: 'ninety', keepOldPrice: false },
          preview: true,
        },
      })
      expect(preview.json()).toEqual({ data: { changes: 1, oneC: 0 } }) // b (49 → 90); a already ends in 90, free has no price
      expect((await pricesOf())[1]).toEqual([49, null])

      const before = await pricesOf()
      for (const [action, field] of [
        [{ kind: 'price', percent: -100, keepOldPrice: false }, 'percent'],
        [{ kind: 'price', percent: 5, amount: 5, keepOldPrice: false }, 'percent'],
        [{ kind: 'price', amount: 10.555, keepOldPrice: false }, 'amount'],
        [{ kind: 'price', percent: 1.234, keepOldPrice: false }, 'percent'],
        [{ kind: 'price', percent: 5, rounding: 'up', keepOldPrice: false }, 'rounding'],
      ] as const) {
        const res = await act([a.id, b.id], action)
        expect(res.statusCode, JSON.stringify(action)).toBe(400)
        expect(res.json().errors[field]).toMatch(/[А-Яа-я]/)
      }
      expect(await pricesOf()).toEqual(before)
    })

    it('«все по фильтру» gives at most 20,000 ids, `more` past them; more than 200 ids a request are refused', async () => {
      // A generated catalogue of exactly 20,000 products in one section, written in bulk.
      const made = await generateCatalogue(t.app.db, { sections: 1, products: 20_000, slug: 'cap' })
      const section = made.sections[0]
      const all = await get(`/api/admin/products/ids?section=${section.id}`)
      expect(all.data.more).toBe(false)
      expect(all.data.batch).toBe(200)
      expect(all.data.ids).toHaveLength(20_000)
      expect(new Set(all.data.ids).size).toBe(20_000)
      // One more, in a subsection: the filter matches 20,001, the answer stops at 20,000.
      await generateCatalogue(t.app.db, { under: section.urlFull, sections: 1, products: 1, slug: 'cap-more' })
      const capped = await get(`/api/admin/products/ids?section=${section.id}`)
      expect(capped.data.more).toBe(true)
      expect(capped.data.ids).toHaveLength(20_000)

      const ids: number[] = all.data.ids
      const hide = { kind: 'hide' }
      for (const refused of [ids.slice(0, 201), [], [ids[0], -1], [ids[0], '7']]) {
        const res = await act(refused, hide)
        expect(res.statusCode).toBe(400)
        expect(res.json().errors.ids).toBe('От 1 до 200 товаров за запрос')
      }
      expect(await rows(`section=${section.id}&state=draft`)).toHaveLength(0)
      expect(await changed(ids.slice(0, 200), hide)).toBe(200)
      expect(await rows(`section=${section.id}&state=draft`)).toHaveLength(200)
    })
  })
}
