// The content tools move a whole catalogue between instances through the API: the export of one
// instance imported into a fresh one serves the same pages. Leads export as Excel-friendly CSV.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { now } from '../../server/data/db'
import { contentMain, everyRecord, exportContent } from '../../server/tools/content'
import { ApiError } from '../../src/api/http-client'
import type { ModelApi } from '../../src/api/model-api'
import { importContent, treeOrder } from '../../server/tools/content-import'
import { leadsMain } from '../../server/tools/leads'
import { readToolConfig, UsageError } from '../../server/tools/tool-config'
import { buildTestApp, collectOutput as collect, listen, type TestApp } from '../helpers/build-test-app'
import { normalisePage, visit } from '../helpers/content-pages'
import { ADMIN_TOKEN, AUTH } from './helpers'
import type { Characteristic } from '../../src/catalogue/characteristics'

let source: TestApp
let target: TestApp

let sourceUrl: string
let targetUrl: string
beforeAll(async () => {
  source = await buildTestApp({ ADMIN_TOKEN })
  target = await buildTestApp({ ADMIN_TOKEN, SEED_DEMO: 'false' })
  sourceUrl = await listen(source)
  targetUrl = await listen(target)
})
afterAll(async () => {
  await source?.close()
  await target?.close()
})

const normalise = normalisePage
const page = visit

describe('content export and import', () => {
  it('copies the catalogue with its images to a fresh instance that then serves identical pages', async () => {
    const data = await exportContent(readToolConfig({ VITRINA_URL: sourceUrl, ADMIN_TOKEN }))
    expect(data.structure.length).toBeGreaterThan(20)
    expect(Object.keys(data.images).length).toBeGreaterThan(10)
    expect(JSON.parse(JSON.stringify(data))).toEqual(data)

    const result = await importContent(readToolConfig({ VITRINA_URL: targetUrl, ADMIN_TOKEN }), data)
    expect(result.records).toBe(data.structure.length)
    // The owner's choices in «Характеристики» (names, filters, order) came with the file (decision 043).
    const listed = async (app: TestApp) =>
      (await app.app.inject({ url: '/api/admin/characteristics', headers: AUTH })).json().data as Characteristic[]
    const choices = (list: Characteristic[]) =>
      list.map(({ name, unit, source, title, shownUnit, shown, filter, sort }) =>
        JSON.stringify({ name, unit, source, title, shownUnit, shown, filter, sort }),
      )
    expect(choices(await listed(target)).sort()).toEqual(choices(await listed(source)).sort())
    expect(result.characteristics).toEqual({ changed: 5, missing: 0 })
    const toolBox = '/structure/hand-tools/tool-box'
    for (const url of ['/', '/structure/', '/structure/product', '/structure/power-tools/', toolBox, '/sitemap.xml']) {
      const [a, b] = await Promise.all([page(source, url), page(target, url)])
      expect(b.statusCode, url).toBe(a.statusCode)
      expect(normalise(b.body), url).toBe(normalise(a.body))
    }
    const image = (await target.app.db.selectFrom('product').select('image').executeTakeFirstOrThrow()).image!
    expect(image).toMatch(/^uploads\/[0-9a-f]{16}\.\d+x\d+\.png$/)
    expect((await page(target, `/media/${image}`)).statusCode).toBe(200)
    // The imported photo is shown through its variants.
    const product = (await page(target, '/structure/product')).body
    const variant = new RegExp(
      `srcSet="/media/(${image.replace(/\.png$/, '').replace(/\./g, '\\.')}-\\d+\\.avif)`,
    ).exec(product)
    expect(variant).not.toBeNull()
    expect((await page(target, `/media/${variant![1]}`)).headers['content-type']).toBe('image/avif')
    // The same file again updates the same records: nothing doubles (decision 025; list items get new ids).
    const counts = async () =>
      Promise.all(
        (['structure', 'productImage', 'productProperty', 'productVariant', 'orderType'] as const).map(async (table) =>
          Number(
            (
              await target.app.db
                .selectFrom(table)
                .select((eb) => eb.fn.countAll<number>().as('n'))
                .executeTakeFirstOrThrow()
            ).n,
          ),
        ),
      )
    const before = await counts()
    const again = await importContent(readToolConfig({ VITRINA_URL: targetUrl, ADMIN_TOKEN }), data)
    expect(await counts()).toEqual(before)
    expect(again.characteristics).toEqual({ changed: 0, missing: 0 })
    // The demo product's gallery and characteristics arrived in their order.
    const exported = data.structure.find((r) => r.urlFull === '/structure/product')!
    expect((exported.images as unknown[]).length).toBe(3)
    expect((exported.properties as Array<{ name: string }>).map((p) => p.name)).toContain('Крутящий момент')
  })

  it('asks again for a page half as long when its answer would be too large, and walks every page', async () => {
    const asked: number[] = []
    const records = Array.from({ length: 5 }, (_, id) => ({ id }))
    const api = {
      async many(_model: string, query: { take: number; skip: number }) {
        asked.push(query.take)
        if (query.take > 2)
          throw new ApiError({ status: 400, code: 'answer_too_large', message: 'Ответ слишком большой' })
        const data = records.slice(query.skip, query.skip + query.take)
        return { data, next: query.skip + query.take < records.length ? { skip: query.skip + query.take } : null }
      },
    } as unknown as ModelApi
    expect(await everyRecord(api, undefined, 8)).toEqual(records)
    expect(asked).toEqual([8, 4, 2, 2, 2])
  })

  it('orders parents before children, smallest id first', () => {
    const order = treeOrder([
      { id: 3, parentId: 5 },
      { id: 5, parentId: 1 },
      { id: 1, parentId: null },
      { id: 2, parentId: 1 },
    ])
    expect(order.map((r) => r.id)).toEqual([1, 2, 5, 3])
  })

  it('prints usage errors in English and refuses an import without the token', async () => {
    await expect(contentMain(['publish'], readToolConfig({ VITRINA_URL: sourceUrl }))).rejects.toThrow(
      /usage: npm run content -- export/,
    )
    await expect(contentMain(['import'], readToolConfig({ VITRINA_URL: sourceUrl }))).rejects.toBeInstanceOf(UsageError)
    await expect(
      importContent(readToolConfig({ VITRINA_URL: targetUrl }), { format: 'vitrina-content' } as never),
    ).rejects.toThrow(/ADMIN_TOKEN/)
    expect(() => readToolConfig({ VITRINA_URL: 'ftp://x' })).toThrow(UsageError)
    expect(readToolConfig({}).baseUrl).toBe('http://localhost:3000')
  })
})

describe('leads export', () => {
  it('writes UTF-8 CSV with a BOM, semicolons, CRLF, quoted cells and formulas defused', async () => {
    const stamp = now()
    await source.app.db
      .insertInto('feedback')
      .values([
        { username: 'Иван; "Ваня"', email: 'ivan@example.ru', phone: '+7 (900) 111-22-33', createdAt: stamp },
        { username: '=HYPERLINK("http://evil")', email: '@evil', phone: '-1+1', createdAt: stamp },
      ])
      .execute()
    const { out, text } = collect()
    await leadsMain(['export', '--format', 'csv'], readToolConfig({ VITRINA_URL: sourceUrl, ADMIN_TOKEN }), out)
    const csv = text()
    expect(csv.startsWith('\uFEFF')).toBe(true)
    const lines = csv.slice(1).split('\r\n')
    expect(lines.at(-1)).toBe('')
    expect(lines[0]).toBe(
      '"Номер";"Дата";"Имя";"Телефон";"E-mail";"Страница";"Товар";"Метки";"Товары";"Сумма";"Заметка"',
    )
    // The phone as written: the formula ="+7 (900) 111-22-33" shows exactly that text in Excel.
    expect(lines[1]).toMatch(
      /^"\d+";"[^"]+";"Иван; ""Ваня""";"=""\+7 \(900\) 111-22-33""";"ivan@example\.ru";"";"";"";"";"";""$/,
    )
    expect(lines[2]).toContain(`"'=HYPERLINK(""http://evil"")"`)
    expect(lines[2]).toContain(`"'-1+1"`)
    expect(lines[2]).toContain(`"'@evil"`)
    expect(lines).toHaveLength(4)
  })

  it('pages by id past the first page: every lead once, oldest first, the bytes of the streamed download', async () => {
    const stamp = now()
    await source.app.db
      .insertInto('feedback')
      .values(
        Array.from({ length: 7 }, (_, i) => ({
          username: `Страница ${i}`,
          email: `page${i}@example.ru`,
          phone: '+7 (900) 111-22-33',
          createdAt: stamp,
          spam: i === 3 ? 1 : 0,
        })),
      )
      .execute()
    const config = readToolConfig({ VITRINA_URL: sourceUrl, ADMIN_TOKEN })
    const paged = collect()
    await leadsMain(['export'], config, paged.out, { pageSize: 2 })
    const ids = paged
      .text()
      .split('\r\n')
      .slice(1, -1)
      .map((line) => Number(/^"(\d+)"/.exec(line)?.[1]))
    const stored = await source.app.db.selectFrom('feedback').select('id').where('spam', '=', 0).orderBy('id').execute()
    expect(ids).toEqual(stored.map((row) => row.id))
    expect(ids.length).toBeGreaterThan(6)
    expect(paged.text()).toContain('Страница 6')
    expect(paged.text()).not.toContain('Страница 3')
    const download = await source.app.inject({
      method: 'GET',
      url: '/api/admin/leads.csv',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    })
    expect(paged.text()).toBe(download.body)
  })

  it('refuses without the token and for formats it does not know', async () => {
    await expect(leadsMain(['export', '--format', 'csv'], readToolConfig({ VITRINA_URL: sourceUrl }))).rejects.toThrow(
      /ADMIN_TOKEN/,
    )
    await expect(
      leadsMain(['export', '--format', 'xlsx'], readToolConfig({ VITRINA_URL: sourceUrl, ADMIN_TOKEN })),
    ).rejects.toThrow(/only csv/)
    await expect(leadsMain([], readToolConfig({ VITRINA_URL: sourceUrl, ADMIN_TOKEN }))).rejects.toThrow(/usage/)
  })
})
