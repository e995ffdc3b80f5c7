// A request line of a variant (docs/decisions/043-variants.md) on both databases: «В заявку» with
// the chosen variant keeps it in the cookie (`<product>v<variant>x<quantity>`), the list shows the
// variant's title, артикул and price, and the lead's line keeps the variant's id, title, артикул
// and price as they were; the 1C order names it `<product Ид>#<characteristic Ид>` when it came from 1C.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TestApp } from '../helpers/build-test-app'
import { DIALECTS } from '../helpers/dialects'
import { PATHS } from '../../src/site/paths'
import { REQUEST_LIST_COOKIE } from '../../src/lead/request-list'

const TOKEN = 'variant-lines-test-token-0123456789'
const FORM = { 'content-type': 'application/x-www-form-urlencoded' }
const person = { username: 'Иван Петров', phone: '8 999 123-45-67', email: 'ivan@example.ru', consent: 'on' }
const encode = (fields: Record<string, string>) => new URLSearchParams(fields).toString()
const listCookie = (setCookie: string | string[] | undefined) =>
  /^[^=]+=([^;]*)/.exec([setCookie ?? []].flat().find((c) => c.startsWith(`${REQUEST_LIST_COOKIE}=`)) ?? '')?.[1] ?? ''

describe.each(DIALECTS)('a variant in the request list on $name', (dialect) => {
  let t: TestApp
  let product: { id: number; title: string }
  let variants: { id: number; title: string; article: string | null; price: number | null }[]
  beforeAll(async () => {
    if (!dialect.available) return
    t = await dialect.build({ ADMIN_TOKEN: TOKEN, LEAD_RATE_LIMIT: '0', LEAD_MIN_FILL_SECONDS: '0' })
    product = await t.app.db
      .selectFrom('structure')
      .select(['id', 'title'])
      .where('title', '=', 'Ящик для инструмента')
      .executeTakeFirstOrThrow()
    variants = await t.app.db
      .selectFrom('productVariant')
      .select(['id', 'title', 'article', 'price'])
      .where('productId', '=', product.id)
      .orderBy('sort')
      .execute()
  }, 60_000)
  afterAll(() => t?.close())

  const change = (fields: Record<string, string>, cookie = '') =>
    t.app.inject({
      method: 'POST',
      url: PATHS.requestList,
      headers: { ...FORM, cookie: `${REQUEST_LIST_COOKIE}=${cookie}` },
      payload: encode(fields),
    })

  it.runIf(dialect.available)('keeps the variant in the line, apart from another variant of the product', async () => {
    const [small, , large] = variants
    let res = await change({ action: 'add', productId: String(product.id), variantId: String(large.id), quantity: '2' })
    expect(res.statusCode).toBe(303)
    let cookie = listCookie(res.headers['set-cookie'])
    expect(cookie).toBe(`${product.id}v${large.id}x2`)
    res = await change({ action: 'add', productId: String(product.id), variantId: String(small.id) }, cookie)
    cookie = listCookie(res.headers['set-cookie'])
    expect(cookie).toBe(`${product.id}v${large.id}x2.${product.id}v${small.id}x1`)
    // A variant of another product, or none at all: 404 in Russian, the cookie unchanged.
    res = await change({ action: 'add', productId: String(product.id), variantId: '999999' }, cookie)
    expect(res.statusCode).toBe(404)
    const page = await t.app.inject({ url: PATHS.requestList, headers: { cookie: `${REQUEST_LIST_COOKIE}=${cookie}` } })
    expect(page.body).toContain(`${product.title}, ${large.title.replace(/"/g, '&quot;')}`)
    expect(page.body).toContain(`Артикул: ${large.article}`)
    expect(page.body).toContain('name="variantId"')
  })

  it.runIf(dialect.available)("stores the variant's id, title, артикул and price in the lead's line", async () => {
    const [, , large] = variants
    const res = await t.app.inject({
      method: 'POST',
      url: `${PATHS.leadEndpoint}?spisok=1`,
      headers: { ...FORM, cookie: `${REQUEST_LIST_COOKIE}=${product.id}v${large.id}x2.${product.id}x1` },
      payload: encode({ ...person, lines: `${product.id}v${large.id}x2` }),
    })
    expect(res.statusCode).toBe(303)
    // The sent line leaves the list; the product's own line stays.
    expect(listCookie(res.headers['set-cookie'])).toBe(`${product.id}x1`)
    const lead = await t.app.db
      .selectFrom('feedback')
      .select(['id', 'total'])
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow()
    expect(lead.total).toBe(large.price! * 2)
    const lines = await t.app.db
      .selectFrom('leadLine')
      .select(['productId', 'variantId', 'variantTitle', 'title', 'article', 'price', 'quantity', 'sum'])
      .where('feedbackId', '=', lead.id)
      .execute()
    expect(lines).toEqual([
      {
        productId: product.id,
        variantId: large.id,
        variantTitle: large.title,
        title: product.title,
        article: large.article,
        price: large.price,
        quantity: 2,
        sum: large.price! * 2,
      },
    ])
  })
})
