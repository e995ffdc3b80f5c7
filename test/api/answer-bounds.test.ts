// The whole answer of a read is bounded (issue #21 item 4, docs/decisions/024-public-reads.md):
// relations never walk back to records the path came from (refused by the parser, before any SQL),
// and the rows and bytes emitted across the tree stop at their budget while the query runs. On
// SQLite and on PostgreSQL, against a section of 80 products and a catalogue of 2,100.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Db } from '../../server/data/db'
import { parseModelQuery } from '../../server/model-api/query-parser'
import { findModel } from '../../server/model-api/registry'
import { stringifyQuery } from '../../src/api/query-string'
import { buildTestApp, type TestApp } from '../helpers/build-test-app'
import { createTestSchema, TEST_DATABASE_URL, type TestSchema } from '../helpers/postgres'
import { ADMIN_TOKEN, AUTH } from './helpers'

const STAMP = '2025-01-01T00:00:00.000Z'

/** The request of the issue: each product's section's products' section's products. */
const issueQuery = (sectionId: number) => ({
  where: { parentId: sectionId },
  select: { id: true, parent: { select: { children: { select: { parent: { select: { children: true } } } } } } },
})

async function insertRecords(
  db: Db,
  rows: Array<{ parentId: number; typeId: string; urlFull: string; content?: string }>,
) {
  const ids: number[] = []
  for (let i = 0; i < rows.length; i += 200) {
    const created = await db
      .insertInto('structure')
      .values(
        rows.slice(i, i + 200).map((row, n) => ({
          ...row,
          title: `Запись ${i + n}`,
          sort: i + n,
          content: row.content ?? null,
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

/** A section of 80 products with 30 advantages; 21 sections of 100 products; 12 long text pages. */
async function seedCatalogue(db: Db) {
  const [big] = await insertRecords(db, [{ parentId: 1, typeId: 'section', urlFull: '/bounds/' }])
  const products = await insertRecords(
    db,
    Array.from({ length: 80 }, (_, i) => ({ parentId: big, typeId: 'product', urlFull: `/bounds/p${i}` })),
  )
  await db
    .insertInto('product')
    .values(products.map((id, i) => ({ structureId: id, article: `A-${i}`, price: (100 + i) * 100, image: null })))
    .execute()
  await db
    .insertInto('advantage')
    .values(Array.from({ length: 30 }, (_, i) => ({ structureId: big, title: `Плюс ${i}`, sort: i })))
    .execute()
  const [wide] = await insertRecords(db, [{ parentId: 1, typeId: 'section', urlFull: '/wide/' }])
  const sections = await insertRecords(
    db,
    Array.from({ length: 21 }, (_, i) => ({ parentId: wide, typeId: 'section', urlFull: `/wide/s${i}/` })),
  )
  await insertRecords(
    db,
    sections.flatMap((section, s) =>
      Array.from({ length: 100 }, (_, i) => ({ parentId: section, typeId: 'product', urlFull: `/wide/s${s}/p${i}` })),
    ),
  )
  // 12 pages of 100,000 characters (the most a write accepts): 2.4 MB of Cyrillic text.
  const text = 'Ж'.repeat(100_000)
  const [long] = await insertRecords(db, [{ parentId: 1, typeId: 'section', urlFull: '/long/' }])
  await insertRecords(
    db,
    Array.from({ length: 12 }, (_, i) => ({ parentId: long, typeId: 'page', urlFull: `/long/${i}`, content: text })),
  )
  return { big, wide, long }
}

const DIALECTS = [
  { name: 'SQLite', enabled: true },
  { name: 'PostgreSQL', enabled: Boolean(TEST_DATABASE_URL) },
]

for (const dialect of DIALECTS) {
  describe.runIf(dialect.enabled)(`the bounds of a whole answer on ${dialect.name}`, () => {
    let schema: TestSchema | undefined
    let t: TestApp
    let ids: Awaited<ReturnType<typeof seedCatalogue>>
    beforeAll(async () => {
      schema = dialect.name === 'PostgreSQL' ? await createTestSchema() : undefined
      t = await buildTestApp({ ADMIN_TOKEN, ...(schema ? { DATABASE_URL: schema.url } : {}) })
      ids = await seedCatalogue(t.app.db)
      t.app.content.invalidate()
    })
    afterAll(async () => {
      await t?.close()
      await schema?.drop()
    })

    const get = (path: string, query: unknown, headers: Record<string, string> = {}) =>
      t.app.inject({ method: 'GET', url: `${path}?${stringifyQuery({ query })}`, headers })

    it("refuses the issue's request (each product's section's products' section's products) with a Russian 400", async () => {
      for (const path of ['/api/many/structure', '/api/structure']) {
        for (const headers of [{}, AUTH]) {
          const res = await get(path, issueQuery(ids.big), headers)
          expect(res.statusCode).toBe(400)
          expect(res.json().error.message).toBe(
            'Связь "children" в модели structure ведёт обратно к записям, уже выбранным через "parent": выберите их поля там',
          )
          expect(res.json().errors).toEqual({ 'query.select.parent.select.children': expect.any(String) })
        }
      }
    })

    it('refuses every other way back: a section to its parent, a part to its record, a grandparent to its grandchildren', async () => {
      const loops: Array<[string, unknown]> = [
        ['/api/many/structure', { select: { children: { select: { parent: true } } } }],
        ['/api/many/structure', { select: { product: { select: { structure: true } } } }],
        ['/api/many/product', { select: { structure: { select: { product: true } } } }],
        ['/api/many/advantages', { select: { structure: { select: { advantages: true } } } }],
        [
          '/api/many/structure',
          { select: { parent: { select: { parent: { select: { children: { select: { children: true } } } } } } } },
        ],
      ]
      for (const [path, query] of loops) {
        const res = await get(path, query)
        expect(res.statusCode, JSON.stringify(query)).toBe(400)
        expect(res.json().error.message).toMatch(/ведёт обратно к записям/)
      }
    })

    it('still answers paths that go one way: down the tree, up the tree, to parts and on to their record', async () => {
      const down = await get('/api/structure', {
        where: { id: ids.wide },
        select: { children: { take: 2, select: { children: { take: 3, select: { urlFull: true, product: true } } } } },
      })
      expect(down.statusCode).toBe(200)
      expect(down.json().data.children.map((s: any) => s.children.map((p: any) => p.urlFull))).toEqual([
        ['/wide/s0/p0', '/wide/s0/p1', '/wide/s0/p2'],
        ['/wide/s1/p0', '/wide/s1/p1', '/wide/s1/p2'],
      ])
      const up = await get('/api/many/product', {
        where: { article: 'A-5' },
        select: {
          price: true,
          structure: { select: { parent: { select: { urlFull: true, advantages: { take: 1 } } } } },
        },
      })
      expect(up.statusCode).toBe(200)
      expect(up.json().data).toEqual([
        {
          price: 105,
          structure: { parent: { urlFull: '/bounds/', advantages: [expect.objectContaining({ title: 'Плюс 0' })] } },
        },
      ])
    })

    it('applies a list’s take and skip per parent, in its order', async () => {
      const res = await get('/api/many/structure', {
        where: { parentId: ids.wide },
        take: 3,
        select: { urlFull: true, children: { skip: 98, select: { urlFull: true } } },
      })
      expect(res.statusCode).toBe(200)
      expect(res.json().data).toEqual(
        [0, 1, 2].map((s) => ({
          urlFull: `/wide/s${s}/`,
          children: [{ urlFull: `/wide/s${s}/p98` }, { urlFull: `/wide/s${s}/p99` }],
        })),
      )
    })

    it('stops an answer past 2,000 rows while loading: 21 sections of 100 products', async () => {
      const query = { where: { parentId: ids.wide }, select: { title: true, children: { select: { title: true } } } }
      const res = await get('/api/many/structure', query)
      expect(res.statusCode).toBe(400)
      expect(res.json().error).toEqual({
        code: 'answer_too_large',
        message:
          'Ответ слишком большой: больше 2000 записей вместе со связанными. Уточните запрос: take, where или меньше связей',
      })
      // The owner's tools read more at once; a visitor pages with take.
      expect((await get('/api/many/structure', query, AUTH)).json().data).toHaveLength(21)
      const paged = await get('/api/many/structure', { ...query, take: 19 })
      expect(paged.statusCode).toBe(200)
    })

    it('stops an answer past 2,000 rows while shaping: 80 products × their section × its 30 advantages', async () => {
      const query = {
        where: { parentId: ids.big },
        select: { id: true, parent: { select: { title: true, advantages: { select: { title: true } } } } },
      }
      const res = await get('/api/many/structure', query)
      expect(res.statusCode).toBe(400)
      expect(res.json().error.code).toBe('answer_too_large')
      const fewer = await get('/api/many/structure', { ...query, take: 60 })
      expect(fewer.statusCode).toBe(200)
      expect(fewer.json().data).toHaveLength(60)
    })

    it('stops an answer past 1 MB of text, and a shorter list of the same records answers', async () => {
      const query = { where: { parentId: ids.long }, select: { urlFull: true, content: true } }
      const res = await get('/api/many/structure', query)
      expect(res.statusCode).toBe(400)
      expect(res.json().error.message).toBe(
        'Ответ слишком большой: больше 1 МБ. Выберите меньше полей или записей (select, take)',
      )
      const two = await get('/api/many/structure', { ...query, take: 2 })
      expect(two.statusCode).toBe(200)
      expect(two.body.length).toBeLessThan(1_000_000)
    })
  })
}

describe('the parser', () => {
  it('refuses a relation back along the path before any database is asked', () => {
    const structure = findModel('structure')!
    expect(() => parseModelQuery(structure, issueQuery(3), { isAdmin: true })).toThrow(/ведёт обратно/)
    expect(() =>
      parseModelQuery(
        structure,
        { select: { children: { select: { children: { select: { product: true } } } } } },
        {
          isAdmin: false,
        },
      ),
    ).not.toThrow()
  })
})
