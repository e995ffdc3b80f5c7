// One visibility rule for everything public (issue #21 item 6): a record is public while it is
// published and not withdrawn. A draft and a withdrawn record of each kind (a product, a section)
// are made through the write API as the back office does, then every public surface is walked:
// their own URLs (404 and 410), the API by id, by status and through relations and parts, the
// menu, the section tiles and product cards, the home page and the sitemap. SQLite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { stringifyQuery } from '../../src/api/query-string'
import { buildTestApp, type TestApp } from '../helpers/build-test-app'
import { multipartBody } from '../helpers/multipart'
import { createTestSchema, TEST_DATABASE_URL, type TestSchema } from '../helpers/postgres'
import { ADMIN_TOKEN, AUTH } from './helpers'

const SECTION = '/structure/vidimost/'
/** Titles no demo text contains: any of the hidden ones on a public page is a leak. */
const SHOWN = { section: 'Раздел Видимость', product: 'Товар Виден Всем' }
const HIDDEN = {
  draftProduct: { title: 'Товар Черновик Скрыт', url: `${SECTION}chernovik`, status: 404 },
  withdrawnProduct: { title: 'Товар Снят Скрыт', url: `${SECTION}snyat`, status: 410 },
  draftSection: { title: 'Раздел Черновик Скрыт', url: '/structure/chernovik-razdel/', status: 404 },
  withdrawnSection: { title: 'Раздел Снят Скрыт', url: '/structure/snyat-razdel/', status: 410 },
}
/** Published products inside the hidden sections: the menu and the home page never walk into them. */
const UNDER_HIDDEN = { draftSection: 'Товар Под Черновиком', withdrawnSection: 'Товар Под Снятым' }
const DRAFT = { published: false }
const WITHDRAWN = { published: true, status: 410 }

const DIALECTS = [
  { name: 'SQLite', enabled: true },
  { name: 'PostgreSQL', enabled: Boolean(TEST_DATABASE_URL) },
]

for (const dialect of DIALECTS) {
  describe.runIf(dialect.enabled)(`what the public sees on ${dialect.name}`, () => {
    let schema: TestSchema | undefined
    let t: TestApp
    const ids: Record<string, number> = {}

    async function write(method: 'POST' | 'PATCH', data: Record<string, unknown>): Promise<number> {
      const body = multipartBody({ data: JSON.stringify(data) })
      const res = await t.app.inject({ method, url: '/api/structure', ...body, headers: { ...body.headers, ...AUTH } })
      expect(res.statusCode, res.body).toBeLessThan(300)
      return res.json().data.id
    }

    const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers })
    const api = (path: string, query: unknown, headers: Record<string, string> = {}) =>
      get(`${path}?${stringifyQuery({ query })}`, headers)

    beforeAll(async () => {
      schema = dialect.name === 'PostgreSQL' ? await createTestSchema() : undefined
      t = await buildTestApp({ ADMIN_TOKEN, ...(schema ? { DATABASE_URL: schema.url } : {}) })
      const root = (await api('/api/structure', { where: { urlFull: '/structure/' }, select: { id: true } })).json()
        .data.id
      const section = await write('POST', { parentId: root, typeId: 'section', title: SHOWN.section, urlFull: SECTION })
      const product = (title: string, urlFull: string) => ({
        parentId: section,
        typeId: 'product',
        title,
        urlFull,
        // Featured: the home page lists every featured product that is public (a bounded selection)
        product: { article: title, price: 1000, description: `Описание: ${title}`, featured: true },
      })
      await write('POST', product(SHOWN.product, `${SECTION}viden`))
      // Made public first, then taken off the site as the back office does («Снять с публикации»).
      for (const [key, record] of Object.entries(HIDDEN)) {
        ids[key] = await write(
          'POST',
          key.endsWith('Product')
            ? product(record.title, record.url)
            : { parentId: root, typeId: 'section', title: record.title, urlFull: record.url },
        )
        await write('PATCH', { id: ids[key], ...(key.startsWith('draft') ? DRAFT : WITHDRAWN) })
      }
      // Each hidden section holds a published product, which the home page would show in its block.
      for (const [key, title] of Object.entries(UNDER_HIDDEN)) {
        const url = `${HIDDEN[key as keyof typeof UNDER_HIDDEN].url}tovar`
        await write('POST', { ...product(title, url), parentId: ids[key] })
      }
    })
    afterAll(async () => {
      await t?.close()
      await schema?.drop()
    })

    it('answers each hidden record’s own URL with 404 (a draft) or 410 (withdrawn)', async () => {
      for (const record of Object.values(HIDDEN))
        expect((await get(record.url)).statusCode, record.url).toBe(record.status)
    })

    it('keeps hidden records and their parts out of the API: by id, by status, by published, and as parts', async () => {
      for (const [key, record] of Object.entries(HIDDEN)) {
        const byId = await api('/api/structure', { where: { id: ids[key] }, select: { title: true } })
        expect(byId.statusCode, record.url).toBe(404)
        expect((await api('/api/structure', { where: { id: ids[key] } }, AUTH)).statusCode).toBe(200)
      }
      for (const where of [{ status: 410 }, { status: { in: [404, 410] } }, { published: false }]) {
        expect((await api('/api/many/structure', { where })).json().data, JSON.stringify(where)).toEqual([])
      }
      const parts = await api('/api/many/product', {
        where: { structureId: { in: [ids.draftProduct, ids.withdrawnProduct] } },
      })
      expect(parts.json().data).toEqual([])
      expect((await api('/api/provider/structure', { where: { status: 410 } })).json().data).toEqual([])
      const all = JSON.stringify((await api('/api/many/structure', { take: 500, select: { title: true } })).json())
      for (const record of Object.values(HIDDEN)) expect(all).not.toContain(record.title)
    })

    it('leaves hidden records out of relations: a section’s children, a record’s part', async () => {
      const catalogue = await api('/api/structure', {
        where: { urlFull: '/structure/' },
        select: { children: { select: { title: true, children: { select: { title: true, product: true } } } } },
      })
      const text = JSON.stringify(catalogue.json())
      expect(text).toContain(SHOWN.product)
      for (const record of Object.values(HIDDEN)) expect(text).not.toContain(record.title)
      const product = await api('/api/many/structure', {
        where: { parentId: { not: null } },
        take: 500,
        select: { product: { select: { article: true } } },
      })
      expect(JSON.stringify(product.json())).not.toContain(HIDDEN.withdrawnProduct.title)
    })

    it('shows no hidden record in the menu, the section tiles, the product cards or the home page', async () => {
      const pages = ['/', '/structure/', SECTION]
      for (const url of pages) {
        const res = await get(url)
        expect(res.statusCode, url).toBe(200)
        for (const record of Object.values(HIDDEN)) {
          expect(res.body, `${url} shows ${record.title}`).not.toContain(record.title)
          expect(res.body, `${url} links ${record.url}`).not.toContain(`href="${record.url}"`)
        }
      }
      for (const title of Object.values(UNDER_HIDDEN)) expect((await get('/')).body).not.toContain(title)
      // What is public around them still shows: the menu and the tile of the section, its card.
      expect((await get('/')).body).toContain(SHOWN.product)
      expect((await get('/structure/')).body).toContain(SHOWN.section)
      expect((await get(SECTION)).body).toContain(SHOWN.product)
    })

    it('leaves hidden records out of the sitemap', async () => {
      const sitemap = (await get('/sitemap.xml')).body
      expect(sitemap).toContain(`${SECTION}viden</loc>`)
      for (const record of Object.values(HIDDEN)) expect(sitemap).not.toContain(`${record.url}</loc>`)
    })
  })
}
