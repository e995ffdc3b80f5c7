// The request list (docs/decisions/041-request-list.md) on both databases: the list's plain-form
// route and its cookie, the list page, and a lead that keeps what it asked for as it was (a later
// price change, rename or deletion of the product changes nothing of it).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TestApp } from '../helpers/build-test-app'
import { DIALECTS } from '../helpers/dialects'
import { PATHS } from '../../src/site/paths'
import { REQUEST_LIST_COOKIE } from '../../src/lead/request-list'
import { lockDatabase } from '../helpers/sqlite-lock'

const TOKEN = 'request-list-test-token-0123456789'
const FORM = { 'content-type': 'application/x-www-form-urlencoded' }
const person = { username: 'Иван Петров', phone: '8 999 123-45-67', email: 'ivan@example.ru', consent: 'on' }
const encode = (fields: Record<string, string>) => new URLSearchParams(fields).toString()

/** The list cookie a Set-Cookie header gives ('' when it clears it). */
function listCookie(setCookie: string | string[] | undefined): string {
  const header = [setCookie ?? []].flat().find((c) => c.startsWith(`${REQUEST_LIST_COOKIE}=`)) ?? ''
  return /^[^=]+=([^;]*)/.exec(header)?.[1] ?? ''
}

describe.each(DIALECTS)('the request list on $name', (dialect) => {
  let t: TestApp
  let products: { id: number; title: string; price: number | null; article: string | null }[]
  beforeAll(async () => {
    if (!dialect.available) return
    t = await dialect.build({ ADMIN_TOKEN: TOKEN, LEAD_RATE_LIMIT: '0', LEAD_MIN_FILL_SECONDS: '0' })
    products = await t.app.db
      .selectFrom('structure')
      .innerJoin('product', 'product.structureId', 'structure.id')
      .select(['structure.id', 'structure.title', 'product.price', 'product.article'])
      .where('product.price', 'is not', null)
      .orderBy('structure.id')
      .limit(2)
      .execute()
  }, 60_000)
  afterAll(() => t?.close())

  const change = (fields: Record<string, string>, cookie = '', accept?: string) =>
    t.app.inject({
      method: 'POST',
      url: PATHS.requestList,
      headers: { ...FORM, cookie: `${REQUEST_LIST_COOKIE}=${cookie}`, ...(accept ? { accept } : {}) },
      payload: encode(fields),
    })

  it.runIf(dialect.available)(
    'keeps lines in the cookie: add, add again, change, remove, each 303 to the list',
    async () => {
      const [a, b] = products
      let res = await change({ action: 'add', productId: String(a.id), quantity: '2' })
      expect(res.statusCode).toBe(303)
      expect(res.headers.location).toBe(PATHS.requestList)
      let cookie = listCookie(res.headers['set-cookie'])
      expect(cookie).toBe(`${a.id}x2`)
      expect(String(res.headers['set-cookie'])).toMatch(/Path=\/; SameSite=Lax; Secure/)
      res = await change({ action: 'add', productId: String(b.id), quantity: '3' }, cookie, 'application/json')
      expect(res.json()).toEqual({ data: { count: 2 } })
      cookie = listCookie(res.headers['set-cookie'])
      cookie = listCookie(
        (await change({ action: 'add', productId: String(a.id), quantity: '1' }, cookie)).headers['set-cookie'],
      )
      expect(cookie).toBe(`${a.id}x3.${b.id}x3`)
      cookie = listCookie(
        (await change({ action: 'set', productId: String(b.id), quantity: '5' }, cookie)).headers['set-cookie'],
      )
      expect(cookie).toBe(`${a.id}x3.${b.id}x5`)
      cookie = listCookie((await change({ action: 'remove', productId: String(a.id) }, cookie)).headers['set-cookie'])
      expect(cookie).toBe(`${b.id}x5`)
      // A card's form: the product is its button's value (`add=<id>`), the same as action=add.
      res = await change({ quantity: '2', add: String(a.id) }, cookie)
      expect(res.statusCode).toBe(303)
      expect(listCookie(res.headers['set-cookie'])).toBe(`${b.id}x5.${a.id}x2`)
      expect((await change({ quantity: '2', add: '99999999' }, '', 'application/json')).statusCode).toBe(404)
    },
  )

  it.runIf(dialect.available)(
    'refuses a bad quantity, an unknown product and a foreign site in Russian, the cookie unchanged',
    async () => {
      const [a] = products
      for (const quantity of ['0', '10000', '1.5', 'много']) {
        const res = await change({ action: 'add', productId: String(a.id), quantity }, '', 'application/json')
        expect(res.statusCode).toBe(400)
        expect(res.json().error.message).toBe('Количество — целое число от 1 до 9 999')
        expect(res.headers['set-cookie']).toBeUndefined()
      }
      const unknown = await change({ action: 'add', productId: '99999999' }, '', 'application/json')
      expect(unknown.statusCode).toBe(404)
      expect(unknown.json().error.message).toMatch(/Товар не найден/)
      const page = await change({ action: 'add', productId: '99999999' })
      expect(page.statusCode).toBe(404)
      expect(page.body).toContain('Товар не найден')
      const foreign = await t.app.inject({
        method: 'POST',
        url: PATHS.requestList,
        headers: { ...FORM, origin: 'https://evil.example' },
        payload: encode({ action: 'add', productId: String(a.id) }),
      })
      expect(foreign.statusCode).toBe(403)
    },
  )

  it.runIf(dialect.available)('stops at 100 lines', async () => {
    const full = Array.from({ length: 100 }, (_, i) => `${1_000_000 + i}x1`).join('.')
    const res = await change({ action: 'add', productId: String(products[0].id) }, full, 'application/json')
    expect(res.statusCode).toBe(409)
    expect(res.json().error.message).toMatch(/100 строк/)
  })

  it.runIf(dialect.available)('shows the lines, their sums and the total on a page nobody else gets', async () => {
    const [a, b] = products
    const res = await t.app.inject({
      url: PATHS.requestList,
      headers: { cookie: `${REQUEST_LIST_COOKIE}=${a.id}x2.${b.id}x1` },
    })
    expect(res.statusCode).toBe(200)
    expect(res.headers['cache-control']).toBe('no-store')
    expect(res.headers['x-robots-tag']).toBe('noindex')
    expect(res.body).toContain(a.title.replace(/"/g, '&quot;'))
    expect(res.body).toContain(`value="${a.id}x2.${b.id}x1"`)
    const total = new Intl.NumberFormat('ru-RU').format(Math.trunc((a.price! * 2 + b.price!) / 100))
    expect(res.body.replace(/\u00a0|&nbsp;/g, ' ')).toContain(total.replace(/\u00a0/g, ' '))
    const empty = await t.app.inject({ url: PATHS.requestList })
    expect(empty.body).toContain('В заявке пока нет товаров')
  })

  it.runIf(dialect.available)(
    'sends the list as one lead whose lines keep title, артикул, price and sum as they were',
    async () => {
      const [a, b] = products
      const cookie = `${a.id}x2.${b.id}x3.777777x1`
      const res = await t.app.inject({
        method: 'POST',
        url: `${PATHS.leadEndpoint}?spisok=1`,
        headers: { ...FORM, cookie: `${REQUEST_LIST_COOKIE}=${cookie}` },
        payload: encode({ ...person, lines: `${a.id}x2.${b.id}x3` }),
      })
      expect(res.statusCode).toBe(303)
      expect(res.headers.location).toBe(PATHS.leadThanks)
      // The sent products leave the list; one added meanwhile stays.
      expect(listCookie(res.headers['set-cookie'])).toBe('777777x1')
      const lead = await t.app.db
        .selectFrom('feedback')
        .select(['id', 'total'])
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow()
      expect(lead.total).toBe(a.price! * 2 + b.price! * 3)
      const lines = () =>
        t.app.db
          .selectFrom('leadLine')
          .select(['productId', 'title', 'article', 'price', 'quantity', 'sum'])
          .where('feedbackId', '=', lead.id)
          .orderBy('position')
          .execute()
      const asSent = [
        { productId: a.id, title: a.title, article: a.article, price: a.price, quantity: 2, sum: a.price! * 2 },
        { productId: b.id, title: b.title, article: b.article, price: b.price, quantity: 3, sum: b.price! * 3 },
      ]
      expect(await lines()).toEqual(asSent)
      // Later: a new price, a new name, the other product deleted.
      await t.app.db
        .updateTable('product')
        .set({ price: 1, article: 'НОВЫЙ' })
        .where('structureId', '=', a.id)
        .execute()
      await t.app.db.updateTable('structure').set({ title: 'Переименован' }).where('id', '=', a.id).execute()
      await t.app.db.deleteFrom('productImage').where('structureId', '=', b.id).execute()
      await t.app.db.deleteFrom('productProperty').where('structureId', '=', b.id).execute()
      await t.app.db.deleteFrom('product').where('structureId', '=', b.id).execute()
      await t.app.db.deleteFrom('structure').where('id', '=', b.id).execute()
      t.app.content.invalidate()
      expect(await lines()).toEqual(asSent)
      const inbox = await t.app.inject({
        url: `/api/admin/leads?tab=new`,
        headers: { authorization: `Bearer ${TOKEN}` },
      })
      const shown = inbox.json().data.find((l: { id: number }) => l.id === lead.id)
      expect(shown.total).toBe((a.price! * 2 + b.price! * 3) / 100)
      expect(shown.lines[0]).toMatchObject({ productId: a.id, title: a.title, quantity: 2, price: a.price! / 100 })
    },
  )

  it.runIf(dialect.available)('shows a refused plain form again on the page it came from', async () => {
    const [a] = products
    const cookie = `${REQUEST_LIST_COOKIE}=${a.id}x4`
    const fromList = await t.app.inject({
      method: 'POST',
      url: `${PATHS.leadEndpoint}?spisok=1`,
      headers: { ...FORM, cookie },
      payload: encode({ ...person, email: '', lines: `${a.id}x4` }),
    })
    expect(fromList.statusCode).toBe(400)
    expect(fromList.body).toContain('<h1>Моя заявка</h1>')
    expect(fromList.body).toContain('Поле обязательно')
    expect(fromList.body).toContain(`value="${a.id}x4"`)
    expect(fromList.headers['set-cookie']).toBeUndefined()
    const fromProduct = await t.app.inject({
      method: 'POST',
      url: PATHS.leadEndpoint,
      headers: FORM,
      payload: encode({ ...person, email: '', lines: `${a.id}x1` }),
    })
    expect(fromProduct.statusCode).toBe(400)
    // The product's title now (an earlier test of this file renames it).
    expect(fromProduct.body).toMatch(/<p class="lead-product">Товар: [^<]+<\/p>/)
    expect(fromProduct.body).toContain(`value="${a.id}x1"`)
  })

  it.runIf(dialect.available)(
    'refuses a lead naming a product that is not public, in Russian, storing nothing',
    async () => {
      const before = await t.app.db
        .selectFrom('feedback')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
      const res = await t.app.inject({
        method: 'POST',
        url: PATHS.leadEndpoint,
        payload: { ...person, consent: true, lines: [{ productId: 424242, quantity: 1 }] },
      })
      expect(res.statusCode).toBe(400)
      expect(res.json().errors.lines).toMatch(/больше нет в каталоге \(№ 424242\)/)
      const tooMany = await t.app.inject({
        method: 'POST',
        url: PATHS.leadEndpoint,
        payload: { ...person, consent: true, lines: [{ productId: products[0].id, quantity: 10000 }] },
      })
      expect(tooMany.statusCode).toBe(400)
      const after = await t.app.db
        .selectFrom('feedback')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
      expect(Number(after.n)).toBe(Number(before.n))
    },
  )
})

describe('a lead with lines journaled while SQLite is locked', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await DIALECTS[0].build({ LEAD_RATE_LIMIT: '0', LEAD_MIN_FILL_SECONDS: '0' })
  })
  afterAll(() => t?.close())

  it('answers 202 and copies the lines when it is stored: prices then, a product gone by then keeps its title', async () => {
    const [a, b] = await t.app.db
      .selectFrom('structure')
      .innerJoin('product', 'product.structureId', 'structure.id')
      .select(['structure.id', 'structure.title'])
      .where('product.price', 'is not', null)
      .orderBy('structure.id')
      .limit(2)
      .execute()
    await t.app.content.routes() // the route map this process holds, as a live site does
    const release = await lockDatabase(t)
    try {
      const res = await t.app.inject({
        method: 'POST',
        url: PATHS.leadEndpoint,
        payload: {
          ...person,
          consent: true,
          email: 'journal-lines@example.ru',
          lines: [
            { productId: a.id, quantity: 2 },
            { productId: b.id, quantity: 1 },
          ],
        },
      })
      expect(res.statusCode).toBe(202)
    } finally {
      await release()
    }
    // While it waited: a new price for one, the other deleted.
    await t.app.db.updateTable('product').set({ price: 12_345 }).where('structureId', '=', a.id).execute()
    await t.app.db.deleteFrom('productImage').where('structureId', '=', b.id).execute()
    await t.app.db.deleteFrom('productProperty').where('structureId', '=', b.id).execute()
    await t.app.db.deleteFrom('product').where('structureId', '=', b.id).execute()
    await t.app.db.deleteFrom('structure').where('id', '=', b.id).execute()
    await t.app.leadJournal.drain()
    const lead = await t.app.db
      .selectFrom('feedback')
      .select(['id', 'total'])
      .where('email', '=', 'journal-lines@example.ru')
      .executeTakeFirstOrThrow()
    expect(lead.total).toBeNull()
    const lines = await t.app.db
      .selectFrom('leadLine')
      .select(['productId', 'title', 'price', 'quantity', 'sum'])
      .where('feedbackId', '=', lead.id)
      .orderBy('position')
      .execute()
    expect(lines).toEqual([
      { productId: a.id, title: a.title, price: 12_345, quantity: 2, sum: 24_690 },
      { productId: b.id, title: b.title, price: null, quantity: 1, sum: null },
    ])
  })
})
