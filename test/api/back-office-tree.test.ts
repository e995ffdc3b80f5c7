// No silent truncation and the content tree at scale (issue 27, decision 028), on SQLite and on
// PostgreSQL: a `many` answer that stops at its limit says where the rest starts; the back office
// reads a section's children a page at a time with their counts; a record moves to another
// section with its URL kept or changed (the old URL then answers 301, at once, cached pages too);
// ↑/↓ trade places with the neighbour even where siblings share a sort value; a URL changed by hand
// in the editor (the generic PATCH) leaves a 301 too, the records under it following.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Db } from '../../server/data/db'
import { stringifyQuery } from '../../src/api/query-string'
import { DIALECTS } from '../helpers/dialects'
import { multipartBody } from '../helpers/multipart'
import type { TestApp } from '../helpers/build-test-app'
import { ADMIN_TOKEN, AUTH } from './helpers'

const STAMP = '2025-01-01T00:00:00.000Z'

async function insert(db: Db, rows: Array<{ parentId: number; typeId: string; urlFull: string; sort?: number }>) {
  const ids: number[] = []
  for (let i = 0; i < rows.length; i += 200) {
    const created = await db
      .insertInto('structure')
      .values(
        rows.slice(i, i + 200).map((row, n) => ({
          sort: i + n,
          ...row,
          title: `Запись ${row.urlFull}`,
          createdAt: STAMP,
          updatedAt: STAMP,
        })),
      )
      .returning('id')
      .execute()
    ids.push(...created.map((r) => r.id))
  }
  return ids
}

for (const dialect of DIALECTS) {
  describe.skipIf(!dialect.available)(`the back office at scale on ${dialect.name}`, () => {
    let t: TestApp
    let big: number
    let other: number
    let products: number[]

    beforeAll(async () => {
      t = await dialect.build({ ADMIN_TOKEN })
      const db = t.app.db
      ;[big, other] = await insert(db, [
        { parentId: 1, typeId: 'section', urlFull: '/big/' },
        { parentId: 1, typeId: 'section', urlFull: '/other/' },
      ])
      products = await insert(
        db,
        Array.from({ length: 620 }, (_, i) => ({ parentId: big, typeId: 'product', urlFull: `/big/p${i}` })),
      )
      await insert(db, [{ parentId: products[0], typeId: 'page', urlFull: '/big/p0/manual' }])
    }, 120_000)

    afterAll(() => t?.close())

    const many = async (query: unknown, headers: Record<string, string> = {}) => {
      const response = await t.app.inject({ url: `/api/many/structure?${stringifyQuery({ query })}`, headers })
      expect(response.statusCode, response.body).toBe(200)
      return response.json<{ data: Array<{ id: number }>; next?: { skip: number } }>()
    }

    it('says where the rest starts when an answer stops at its limit, and not on the last page', async () => {
      const where = { parentId: big }
      const first = await many({ where, select: { id: true } })
      expect(first.data).toHaveLength(500)
      expect(first.next).toEqual({ skip: 500 })
      const last = await many({ where, select: { id: true }, skip: first.next!.skip })
      expect(last.data).toHaveLength(120)
      expect(last).not.toHaveProperty('next')
      expect([...first.data, ...last.data].map((r) => r.id)).toEqual(products)

      const small = await many({ where, select: { id: true }, take: 10, skip: 610 })
      expect(small.data).toHaveLength(10)
      expect(small).not.toHaveProperty('next')
      expect((await many({ where, select: { id: true }, take: 10, skip: 600 }, AUTH)).next).toEqual({ skip: 610 })
    })

    it('says it in the options of a picker too', async () => {
      const response = await t.app.inject({
        url: `/api/provider/structure?${stringifyQuery({ query: { where: { parentId: big }, take: 5 } })}`,
      })
      expect(response.json()).toMatchObject({ next: { skip: 5 } })
    })

    const children = async (query: string) => {
      const response = await t.app.inject({ url: `/api/admin/content/children?${query}`, headers: AUTH })
      expect(response.statusCode, response.body).toBe(200)
      return response.json<{
        data: Array<{ id: number; urlFull: string; children: number; sort: number }>
        total: number
        next: { skip: number } | null
      }>()
    }

    it('lists a section a page at a time in the site order, with the number under each record', async () => {
      const top = await children('')
      expect(top.data.map((r) => r.urlFull)).toEqual(['/'])
      const root = await children('parentId=1')
      const bigRow = root.data.find((r) => r.id === big)
      expect(bigRow?.children).toBe(620)
      const first = await children(`parentId=${big}`)
      expect(first).toMatchObject({ total: 620, next: { skip: 50 } })
      expect(first.data.map((r) => r.id)).toEqual(products.slice(0, 50))
      expect(first.data[0].children).toBe(1)
      const last = await children(`parentId=${big}&skip=600`)
      expect(last.data.map((r) => r.id)).toEqual(products.slice(600))
      expect(last.next).toBeNull()
    })

    it('refuses bad paging in Russian and is the owner’s only', async () => {
      const bad = await t.app.inject({ url: '/api/admin/content/children?take=0', headers: AUTH })
      expect(bad.statusCode).toBe(400)
      expect(bad.json().error.message).toMatch(/take/)
      const anonymous = await t.app.inject({ url: '/api/admin/content/children' })
      expect(anonymous.statusCode).toBe(401)
    })

    const post = (url: string, payload: Record<string, unknown>) =>
      t.app.inject({ method: 'POST', url, headers: AUTH, payload })

    it('moves a product with a new URL: the old one answers 301 at once, cached or not', async () => {
      const id = products[0]
      t.app.content.invalidate() // the records were written straight into the database
      expect((await t.app.inject({ url: '/big/p0' })).statusCode).toBe(200)
      expect((await t.app.inject({ url: '/big/p0' })).headers['x-vitrina-cache']).toBe('hit')
      const moved = await post(`/api/admin/content/${id}/move`, { parentId: other, keepUrl: false })
      expect(moved.statusCode, moved.body).toBe(200)
      expect(moved.json().data).toEqual({ id, parentId: other, urlFull: '/other/p0' })
      const old = await t.app.inject({ url: '/big/p0?utm_source=x' })
      expect(old.statusCode).toBe(301)
      expect(old.headers.location).toBe('/other/p0?utm_source=x')
      expect((await t.app.inject({ url: '/other/p0' })).statusCode).toBe(200)
      // The page under it kept the product's path, so it moved with it.
      expect((await t.app.inject({ url: '/big/p0/manual' })).headers.location).toBe('/other/p0/manual')
      expect((await children(`parentId=${other}`)).data.map((r) => r.id)).toEqual([id])
      expect((await children(`parentId=${big}`)).total).toBe(619)

      // Moved again: the first old URL follows the record, not the URL it moved to.
      expect((await post(`/api/admin/content/${id}/move`, { parentId: big, keepUrl: false })).statusCode).toBe(200)
      expect((await t.app.inject({ url: '/other/p0' })).headers.location).toBe('/big/p0')
      expect((await t.app.inject({ url: '/big/p0' })).statusCode).toBe(200)
    })

    it('moves a record keeping its URL, and says why it cannot move in Russian', async () => {
      const id = products[1]
      const kept = await post(`/api/admin/content/${id}/move`, { parentId: other, keepUrl: true })
      expect(kept.json().data.urlFull).toBe('/big/p1')
      expect((await t.app.inject({ url: '/big/p1' })).statusCode).toBe(200)

      const inside = await post(`/api/admin/content/${big}/move`, { parentId: products[5], keepUrl: false })
      expect(inside.statusCode).toBe(400)
      expect(inside.json().error.message).toBe('Нельзя перенести запись внутрь неё самой')
      // /other/p1 is free, /big/p2 → /other/p2 too; a clash is refused with nothing changed.
      await insert(t.app.db, [{ parentId: other, typeId: 'page', urlFull: '/other/p3' }])
      const clash = await post(`/api/admin/content/${products[3]}/move`, { parentId: other, keepUrl: false })
      expect(clash.statusCode).toBe(409)
      expect(clash.json().errors.urlFull).toMatch(/занят/)
      expect((await t.app.inject({ url: '/big/p3' })).statusCode).toBe(200)
      const bad = await post(`/api/admin/content/${id}/move`, { parentId: 'x' })
      expect(bad.statusCode).toBe(400)
      expect(bad.json().errors).toEqual({ parentId: 'Выберите раздел', keepUrl: 'Укажите, сохранить ли адрес' })
    })

    it("leads a moved section's old URL to its new one with the trailing slash or without", async () => {
      const [section] = await insert(t.app.db, [{ parentId: 1, typeId: 'section', urlFull: '/wander/' }])
      t.app.content.invalidate() // the record was written straight into the database
      const moved = await post(`/api/admin/content/${section}/move`, { parentId: other, keepUrl: false })
      expect(moved.statusCode, moved.body).toBe(200)
      expect(moved.json().data.urlFull).toBe('/other/wander/')
      for (const url of ['/wander/', '/wander']) {
        const old = await t.app.inject({ url: `${url}?utm_source=x` })
        expect(old.statusCode, url).toBe(301)
        expect(old.headers.location, url).toBe('/other/wander/?utm_source=x')
      }
      expect((await t.app.inject({ url: '/other/wander/' })).statusCode).toBe(200)
      // A URL that never was anything's still answers 404, with or without the slash.
      expect((await t.app.inject({ url: '/wandering' })).statusCode).toBe(404)
    })

    it('answers 410 on the old URL of a moved record that was deleted', async () => {
      const [page] = await insert(t.app.db, [{ parentId: big, typeId: 'page', urlFull: '/big/leaving' }])
      await post(`/api/admin/content/${page}/move`, { parentId: other, keepUrl: false })
      const deleted = await t.app.inject({ method: 'DELETE', url: `/api/structure?id=${page}`, headers: AUTH })
      expect(deleted.statusCode, deleted.body).toBe(200)
      expect((await t.app.inject({ url: '/big/leaving' })).statusCode).toBe(410)
      expect((await t.app.inject({ url: '/other/leaving' })).statusCode).toBe(410)
    })

    const patchUrl = async (id: number, urlFull: string) => {
      const body = multipartBody({ data: JSON.stringify({ id, urlFull }) })
      return t.app.inject({
        method: 'PATCH',
        url: '/api/structure',
        payload: body.payload,
        headers: { ...body.headers, ...AUTH },
      })
    }

    it('leaves a 301 behind a URL changed by hand, the records under it following, a second change too', async () => {
      const [section] = await insert(t.app.db, [{ parentId: 1, typeId: 'section', urlFull: '/renamed/' }])
      const [item, own] = await insert(t.app.db, [
        { parentId: section, typeId: 'product', urlFull: '/renamed/item' },
        { parentId: section, typeId: 'page', urlFull: '/elsewhere' },
      ])
      t.app.content.invalidate() // the records were written straight into the database
      expect((await t.app.inject({ url: '/renamed/item' })).statusCode).toBe(200)
      const changed = await patchUrl(section, '/novoe/')
      expect(changed.statusCode, changed.body).toBe(200)
      expect(changed.json().data.urlFull).toBe('/novoe/')
      const old = await t.app.inject({ url: '/renamed/?utm_source=x' })
      expect(old.statusCode).toBe(301)
      expect(old.headers.location).toBe('/novoe/?utm_source=x')
      expect((await t.app.inject({ url: '/renamed/item' })).headers.location).toBe('/novoe/item')
      expect((await t.app.inject({ url: '/novoe/item' })).statusCode).toBe(200)
      // A record under it with a URL of its own keeps it.
      expect((await t.app.inject({ url: '/elsewhere' })).statusCode).toBe(200)
      expect(
        (await t.app.inject({ url: `/api/structure?${stringifyQuery({ query: { where: { id: own } } })}` })).json().data
          .urlFull,
      ).toBe('/elsewhere')

      // The product renamed on its own: both of its old URLs lead to where it is now.
      expect((await patchUrl(item, '/novoe/tovar')).statusCode).toBe(200)
      expect((await t.app.inject({ url: '/renamed/item' })).headers.location).toBe('/novoe/tovar')
      expect((await t.app.inject({ url: '/novoe/item' })).headers.location).toBe('/novoe/tovar')
      // Back to a URL it had: it serves the record again, and nothing redirects it.
      expect((await patchUrl(item, '/novoe/item')).statusCode).toBe(200)
      expect((await t.app.inject({ url: '/novoe/item' })).statusCode).toBe(200)
      expect((await t.app.inject({ url: '/novoe/tovar' })).headers.location).toBe('/novoe/item')
    })

    it('refuses a URL changed by hand onto a taken one, with nothing changed', async () => {
      const [section, item, taken] = await insert(t.app.db, [
        { parentId: 1, typeId: 'section', urlFull: '/clash/' },
        { parentId: 1, typeId: 'page', urlFull: '/target/x' },
        { parentId: 1, typeId: 'page', urlFull: '/target/' },
      ])
      await t.app.db
        .updateTable('structure')
        .set({ parentId: section, urlFull: '/clash/x' })
        .where('id', '=', item)
        .execute()
      // The section's own new URL is taken.
      const own = await patchUrl(section, '/target/')
      expect(own.statusCode).toBe(409)
      await t.app.db.updateTable('structure').set({ urlFull: '/taken-elsewhere/' }).where('id', '=', taken).execute()
      await insert(t.app.db, [{ parentId: 1, typeId: 'page', urlFull: '/target/x' }])
      // A record under it would land on a taken URL.
      const under = await patchUrl(section, '/target/')
      expect(under.statusCode).toBe(409)
      expect(under.json().error.message).toBe('Адрес «/target/x» уже занят другой записью')
      t.app.content.invalidate()
      expect((await t.app.inject({ url: '/clash/x' })).statusCode).toBe(200)
      expect((await t.app.inject({ url: '/clash/' })).statusCode).toBe(200)
    })

    it('moves a record one place among siblings that share a sort value', async () => {
      const [a, b, c] = await insert(t.app.db, [
        { parentId: other, typeId: 'page', urlFull: '/other/a', sort: 7 },
        { parentId: other, typeId: 'page', urlFull: '/other/b', sort: 7 },
        { parentId: other, typeId: 'page', urlFull: '/other/c', sort: 7 },
      ])
      const order = async () =>
        (await children(`parentId=${other}`)).data.map((r) => r.id).filter((id) => [a, b, c].includes(id))
      expect(await order()).toEqual([a, b, c])
      expect((await post(`/api/admin/content/${c}/order`, { direction: 'up' })).statusCode).toBe(200)
      expect(await order()).toEqual([a, c, b])
      expect((await post(`/api/admin/content/${a}/order`, { direction: 'down' })).statusCode).toBe(200)
      expect(await order()).toEqual([c, a, b])
      const first = (await children(`parentId=${other}`)).data[0].id
      const refused = await post(`/api/admin/content/${first}/order`, { direction: 'up' })
      expect(refused.statusCode).toBe(409)
      expect(refused.json().error.message).toBe('Запись уже первая в разделе')
    })
  })
}
