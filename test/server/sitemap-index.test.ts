// The sitemap past its per-file limit: /sitemap.xml becomes an index of files that together list
// every public URL once, each file within the limit; on both databases. The limit (50,000 in
// production) is lowered here instead of making 50,000 records.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../helpers/build-test-app'
import { generateCatalogue } from '../helpers/catalogue'
import { DIALECTS } from '../helpers/dialects'
import { createTestSchema } from '../helpers/postgres'

const PER_FILE = 20

function locs(xml: string): string[] {
  return [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1])
}

describe.each(DIALECTS)('the sitemap at scale on $name', (dialect) => {
  let t: TestApp
  let publicUrls: string[]
  beforeAll(async () => {
    if (!dialect.available) return
    const options = { sitemapUrlsPerFile: PER_FILE }
    if (dialect.name === 'SQLite') t = await buildTestApp({}, options)
    else {
      const schema = await createTestSchema()
      const built = await buildTestApp({ DATABASE_URL: schema.url }, options)
      t = {
        ...built,
        async close() {
          await built.close()
          await schema.drop()
        },
      }
    }
    await generateCatalogue(t.app.db, { sections: 3, products: 60, firstSection: 40 })
    t.app.content.invalidate()
    const rows = await t.app.db
      .selectFrom('structure')
      .select(['urlFull', 'published', 'status', 'metaRobots'])
      .execute()
    publicUrls = rows
      .filter((r) => r.published && r.status === null && !/noindex/i.test(r.metaRobots ?? ''))
      .map((r) => `https://shop.example.ru${encodeURI(r.urlFull)}`)
  }, 60_000)
  afterAll(() => t?.close())

  it.runIf(dialect.available)(
    'splits into an index whose files list every public URL once, none past the limit',
    async () => {
      const index = await t.app.inject({ url: '/sitemap.xml' })
      expect(index.statusCode).toBe(200)
      expect(index.headers['content-type']).toMatch(/xml/)
      expect(index.body).toContain('<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">')
      const files = locs(index.body)
      expect(files.length).toBe(Math.ceil(publicUrls.length / PER_FILE))
      expect(files[0]).toBe('https://shop.example.ru/sitemap-1.xml')
      const listed: string[] = []
      for (const file of files) {
        const res = await t.app.inject({ url: new URL(file).pathname })
        expect(res.statusCode, file).toBe(200)
        expect(res.body).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">')
        const urls = locs(res.body)
        expect(urls.length).toBeLessThanOrEqual(PER_FILE)
        listed.push(...urls)
      }
      expect(listed.length).toBe(new Set(listed).size)
      expect([...listed].sort()).toEqual([...publicUrls].sort())
      // Records only: never a page of a section, a sorted or a filtered list.
      expect(listed.filter((url) => url.includes('?'))).toEqual([])
    },
  )

  it.runIf(dialect.available)(
    'answers 404 past the last file, and leaves other /sitemap-… paths to the pages',
    async () => {
      const files = locs((await t.app.inject({ url: '/sitemap.xml' })).body).length
      expect((await t.app.inject({ url: `/sitemap-${files + 1}.xml` })).statusCode).toBe(404)
      for (const url of ['/sitemap-0.xml', '/sitemap-x.xml', '/sitemap-1.xml.gz', '/sitemap-9999999.xml']) {
        expect((await t.app.inject({ url })).statusCode, url).toBe(404)
      }
    },
  )
})

describe('the sitemap of a small site', () => {
  it('is one file of URLs, and has no numbered files', async () => {
    const t = await buildTestApp()
    try {
      const res = await t.app.inject({ url: '/sitemap.xml' })
      expect(res.body).toContain('<urlset')
      expect(locs(res.body)).toContain('https://shop.example.ru/structure/krepezh/')
      expect((await t.app.inject({ url: '/sitemap-1.xml' })).statusCode).toBe(404)
    } finally {
      await t.close()
    }
  })
})
