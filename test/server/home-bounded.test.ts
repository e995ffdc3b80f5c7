// The home page shows a bounded selection whatever the catalogue's size: the owner's featured
// products, else the first few of each section, 12 in all, within 60 KB of HTML; on both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TestApp } from '../helpers/build-test-app'
import { generateCatalogue } from '../helpers/catalogue'
import { DIALECTS } from '../helpers/dialects'

const MAX_HTML_BYTES = 60 * 1024

function cardUrls(html: string): string[] {
  return [...html.matchAll(/<a class="card__link" href="([^"]+)"/g)].map((m) => m[1])
}

describe.each(DIALECTS)('the home page of a 2,000-product catalogue on $name', (dialect) => {
  let t: TestApp
  beforeAll(async () => {
    if (!dialect.available) return
    t = await dialect.build({ PAGE_CACHE_MB: '0' })
    await generateCatalogue(t.app.db, { sections: 100, products: 2000 })
    // The demo shop features a few products: start from none.
    await t.app.db.updateTable('product').set({ featured: 0 }).execute()
    t.app.content.invalidate()
  }, 120_000)
  afterAll(() => t?.close())

  it.runIf(dialect.available)(
    'shows the first few products of the first sections, 12 in all, within 60 KB',
    async () => {
      const res = await t.app.inject({ url: '/' })
      expect(res.statusCode).toBe(200)
      expect(res.rawPayload.length).toBeLessThanOrEqual(MAX_HTML_BYTES)
      const cards = cardUrls(res.body)
      expect(cards).toHaveLength(12)
      // The demo's sections come first in the tree: four of each.
      expect(
        cards.slice(0, 4).every((url) => url.startsWith('/structure/power-tools/') || url === '/structure/product'),
      ).toBe(true)
      // Nothing else on the page grows with the catalogue either: the header's menu is capped too.
      expect(res.body).not.toContain('/structure/gen-100/')
      // Each section shown says how many products it holds (read from its list: the map holds none).
      const shown = [...res.body.matchAll(/Все товары \((?:<!-- -->)?(\d+)(?:<!-- -->)?\)/g)].map((m) => Number(m[1]))
      const tools = await t.app.db
        .selectFrom('structure as s')
        .innerJoin('structure as p', 'p.parentId', 's.id')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('s.urlFull', '=', '/structure/power-tools/')
        .where('p.typeId', '=', 'product')
        .where('p.published', '=', 1)
        .executeTakeFirstOrThrow()
      expect(shown[0]).toBe(Number(tools.count))
    },
  )

  it.runIf(dialect.available)(
    'shows the featured products instead, at most 12, when the owner marked some',
    async () => {
      const featured = await t.app.db
        .selectFrom('structure')
        .select(['id', 'urlFull'])
        .where('urlFull', 'like', '/structure/gen-%/p-%')
        .orderBy('id', 'desc')
        .limit(15)
        .execute()
      await t.app.db
        .updateTable('product')
        .set({ featured: 1 })
        .where(
          'structureId',
          'in',
          featured.map((f) => f.id),
        )
        .execute()
      t.app.content.invalidate()
      const res = await t.app.inject({ url: '/' })
      expect(res.rawPayload.length).toBeLessThanOrEqual(MAX_HTML_BYTES)
      expect(res.body).toContain('Популярные товары')
      const cards = cardUrls(res.body)
      expect(cards).toHaveLength(12)
      const marked = new Set(featured.map((f) => f.urlFull))
      expect(cards.every((url) => marked.has(url))).toBe(true)
    },
  )
})
