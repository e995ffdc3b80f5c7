// A section pages, sorts and filters its products through plain links and a GET form, on both
// databases: what a visitor without JavaScript and a crawler see (docs/decisions/031-sections-and-scale.md).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { decodeEntities, type TestApp } from '../helpers/build-test-app'
import { generateCatalogue } from '../helpers/catalogue'
import { DIALECTS } from '../helpers/dialects'

const SECTION = '/structure/gen-1/'
const PRODUCTS = 50

interface Row {
  id: number
  urlFull: string
  title: string
  price: number | null
  availability: string
  sort: number
}

/** The product links of the cards on a page, in order. */
function cardUrls(html: string): string[] {
  return [...html.matchAll(/<a class="card__link" href="([^"]+)"/g)].map((m) => decodeEntities(m[1]))
}

function canonicalOf(html: string): string | undefined {
  return /<link rel="canonical" href="([^"]+)"/.exec(html)?.[1]
}

/** Follows `rel="next"` from page 1 to the end, as a crawler does: every card in order. */
async function crawl(t: TestApp, start: string): Promise<{ urls: string[]; pages: string[] }> {
  const urls: string[] = []
  const pages: string[] = []
  let next: string | undefined = start
  while (next) {
    const url: string = next
    const res = await t.app.inject({ url })
    expect(res.statusCode, url).toBe(200)
    pages.push(url)
    urls.push(...cardUrls(res.body))
    next = /<a class="pagination__step" href="([^"]+)" rel="next"/.exec(res.body)?.[1]
    if (next) next = decodeEntities(next)
    expect(pages.length).toBeLessThan(10)
  }
  return { urls, pages }
}

const byPrice = (direction: 1 | -1) => (a: Row, b: Row) =>
  (a.price === null ? 1 : 0) - (b.price === null ? 1 : 0) ||
  (a.price !== null && b.price !== null ? direction * (a.price - b.price) : 0) ||
  a.id - b.id

describe.each(DIALECTS)('a section page on $name', (dialect) => {
  let t: TestApp
  let rows: Row[]
  beforeAll(async () => {
    if (!dialect.available) return
    t = await dialect.build()
    await generateCatalogue(t.app.db, { sections: 2, products: PRODUCTS + 3, firstSection: PRODUCTS })
    t.app.content.invalidate()
    rows = (
      await t.app.db
        .selectFrom('structure')
        .innerJoin('product', 'product.structureId', 'structure.id')
        .select(['structure.id', 'urlFull', 'title', 'price', 'availability', 'sort'])
        .where('parentId', '=', (qb) => qb.selectFrom('structure').select('id').where('urlFull', '=', SECTION))
        .execute()
    ).map((r) => ({ ...r, id: Number(r.id) }))
  }, 60_000)
  afterAll(() => t?.close())

  it.runIf(dialect.available)(
    'pages through every product, 24 a page, by plain links, each page its own canonical',
    async () => {
      const { urls, pages } = await crawl(t, SECTION)
      expect(pages).toEqual([SECTION, `${SECTION}?page=2`, `${SECTION}?page=3`])
      const inTreeOrder = [...rows].sort((a, b) => a.sort - b.sort || a.id - b.id).map((r) => r.urlFull)
      expect(urls).toEqual(inTreeOrder)
      const first = (await t.app.inject({ url: SECTION })).body
      const second = (await t.app.inject({ url: `${SECTION}?page=2` })).body
      expect(canonicalOf(first)).toBe(`https://shop.example.ru${SECTION}`)
      expect(canonicalOf(second)).toBe(`https://shop.example.ru${SECTION}?page=2`)
      expect(second).toMatch(/<title>Раздел 1 — страница 2<\/title>/)
      expect(second).toContain(`href="${SECTION}" rel="prev"`)
      expect(first).toContain('Найдено товаров: <!-- -->50')
      expect(first).toContain('aria-label="Страница 3"')
    },
  )

  it.runIf(dialect.available)(
    'answers a page past the last with 404, and spells page 1 and junk as the section itself',
    async () => {
      const p4 = await t.app.inject({ url: `${SECTION}?page=4` })
      expect(p4.statusCode).toBe(404)
      expect((await t.app.inject({ url: `${SECTION}?page=99999999999` })).statusCode).toBe(404)
      for (const junk of ['page=1', 'page=abc', 'page=0', 'page=-2', 'page=', 'sort=cheap', 'min=&max=']) {
        const res = await t.app.inject({ url: `${SECTION}?${junk}` })
        expect([res.statusCode, res.headers.location], junk).toEqual([301, SECTION])
      }
      const twice = await t.app.inject({ url: `${SECTION}?page=2&page=3&utm_source=ya` })
      expect([twice.statusCode, twice.headers.location]).toEqual([301, `${SECTION}?page=2&utm_source=ya`])
    },
  )

  it.runIf(dialect.available)(
    'sorts by price both ways with unpriced products last, and by name; ties by id',
    async () => {
      for (const [sort, order] of [
        ['price', byPrice(1)],
        ['price-desc', byPrice(-1)],
        ['name', (a: Row, b: Row) => (a.title < b.title ? -1 : a.title > b.title ? 1 : a.id - b.id)],
      ] as const) {
        const { urls, pages } = await crawl(t, `${SECTION}?sort=${sort}`)
        expect(pages, sort).toHaveLength(3)
        expect(urls, sort).toEqual([...rows].sort(order).map((r) => r.urlFull))
        // Sorted, it is the section's page for a search engine: one canonical, the section.
        const res = await t.app.inject({ url: `${SECTION}?page=2&sort=${sort}` })
        expect(canonicalOf(res.body)).toBe(`https://shop.example.ru${SECTION}`)
      }
    },
  )

  it.runIf(dialect.available)(
    'filters by availability and price range through its GET form, keeping the order',
    async () => {
      const page = (await t.app.inject({ url: SECTION })).body
      const form = /<form class="listing-filter"[^>]*>/.exec(page)?.[0]
      expect(form).toContain(`action="${SECTION}"`)
      expect(form).toContain('method="get"')
      for (const name of ['avail', 'min', 'max']) expect(page).toContain(`name="${name}"`)
      // What the browser sends from the form: every field, the empty ones too.
      const sent = await t.app.inject({ url: `${SECTION}?sort=price&avail=on_order&min=200&max=` })
      expect(sent.statusCode).toBe(301)
      expect(sent.headers.location).toBe(`${SECTION}?avail=on_order&min=200&sort=price`)
      const { urls } = await crawl(t, String(sent.headers.location))
      const expected = rows
        .filter((r) => r.availability === 'on_order' && r.price !== null && r.price >= 200 * 100)
        .sort(byPrice(1))
        .map((r) => r.urlFull)
      expect(expected.length).toBeGreaterThan(0)
      expect(urls).toEqual(expected)
      const none = await t.app.inject({ url: `${SECTION}?max=1&min=0` })
      expect(none.statusCode).toBe(301)
      const empty = await t.app.inject({ url: String(none.headers.location) })
      expect(empty.statusCode).toBe(200)
      expect(empty.body).toContain('Ничего не найдено')
    },
  )

  it.runIf(dialect.available)(
    'keeps each page once in the page cache, keyed by the parameters the page reads only',
    async () => {
      const first = await t.app.inject({ url: `${SECTION}?page=2` })
      expect(first.statusCode).toBe(200)
      for (const extra of ['', '&utm_source=ya', '&ref=x&from=mail']) {
        const res = await t.app.inject({ url: `${SECTION}?page=2${extra}` })
        expect([res.statusCode, res.headers['x-vitrina-cache']], extra).toEqual([200, 'hit'])
        expect(cardUrls(res.body)).toEqual(cardUrls(first.body))
      }
      const third = await t.app.inject({ url: `${SECTION}?page=3` })
      expect(cardUrls(third.body)).not.toEqual(cardUrls(first.body))
    },
  )

  it.runIf(dialect.available)('never answers a 500 for any spelling of its parameters', async () => {
    const junk = [
      'page=1e3',
      'page=%00',
      'page[]=2',
      'sort[$gt]=1',
      'min=-5&max=abc',
      `min=${'9'.repeat(400)}`,
      'avail=in_stock&avail=on_order',
      'avail=%D0%B4%D0%B0',
      `page=${'2'.repeat(5000)}`,
      'page=2%20',
      'max=5&min=10000',
    ]
    for (const query of junk) {
      const res = await t.app.inject({ url: `${SECTION}?${query}` })
      expect([200, 301, 404], query).toContain(res.statusCode)
      if (res.statusCode === 301) {
        const followed = await t.app.inject({ url: String(res.headers.location) })
        expect([200, 404], query).toContain(followed.statusCode)
      }
    }
  })

  it.runIf(dialect.available)('redirects a section parameter away from every page that does not read it', async () => {
    const product = await t.app.inject({ url: '/structure/product?page=2&utm_source=ya' })
    expect([product.statusCode, product.headers.location]).toEqual([301, '/structure/product?utm_source=ya'])
    const home = await t.app.inject({ url: '/?sort=price' })
    expect([home.statusCode, home.headers.location]).toEqual([301, '/'])
  })
})
