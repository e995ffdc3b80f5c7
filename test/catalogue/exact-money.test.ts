// Exact money (issue 44, docs/decisions/040-exact-money.md): a price with kopecks is kept to the
// kopeck from every door (the model API, the price list, 1C) and comes out exactly wherever it is
// shown or sent: the page, JSON-LD, the Yandex feed, the model API's answers and filters, the price
// list's export and its round trip, the sort order of a section. And migration 028 turns the whole
// rubles a site kept before into kopecks, showing every price as it was. On SQLite and PostgreSQL.
import path from 'node:path'
import ExcelJS from 'exceljs'
import { Kysely, Migrator, SqliteDialect } from 'kysely'
import { OwnSchemaPostgresDialect } from '../../server/data/own-schema-dialect'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { stringifyQuery } from '../../src/api/query-string'
import { formatMoney } from '../../src/format/money'
import { openDatabase } from '../../server/data/db'
import { MIGRATIONS } from '../../server/data/migrations'
import { SQLite } from '../../server/data/sqlite-driver'
import { ADMIN_TOKEN, AUTH } from '../api/helpers'
import { decodeEntities, recordIdAt, tempDir, type TestApp } from '../helpers/build-test-app'
import { DIALECTS } from '../helpers/dialects'
import { sendRecord, uploadPriceList } from '../helpers/multipart'
import { createTestSchema, TEST_DATABASE_URL } from '../helpers/postgres'
import { removeDir } from '../admin/admin-helpers'

const PUBLIC_URL = 'https://shop.example.ru'
const SCREWDRIVER = '/structure/power-tools/screwdriver'

for (const dialect of DIALECTS) {
  describe.runIf(dialect.available)(`exact money on ${dialect.name}`, () => {
    let t: TestApp
    let id: number
    beforeAll(async () => {
      t = await dialect.build({ ADMIN_TOKEN, PUBLIC_URL, YANDEX_FEED: 'true', YANDEX_FEED_COMPANY: 'ООО «Тест»' })
      id = await recordIdAt(t.app.db, SCREWDRIVER)
      const res = await sendRecord(t.app, AUTH, 'PATCH', '/api/product', { structureId: id, price: 1299.9 })
      expect(res.statusCode, res.body).toBe(200)
    })
    afterAll(async () => {
      await t?.close()
    })

    const get = (url: string, query?: Record<string, unknown>) => {
      const search = query ? stringifyQuery({ query }) : ''
      return t.app.inject({ url: search ? `${url}?${search}` : url, headers: AUTH })
    }

    it('keeps the kopecks and shows them on the page and in JSON-LD', async () => {
      const stored = await t.app.db
        .selectFrom('product')
        .select('price')
        .where('structureId', '=', id)
        .executeTakeFirst()
      expect(stored?.price).toBe(129990)
      const html = decodeEntities((await t.app.inject({ url: SCREWDRIVER })).body)
      expect(html).toContain(formatMoney(129990))
      expect(formatMoney(129990)).toMatch(/^1\s299,90\s₽$/)
      expect(html).toContain('"price":"1299.90"')
      // A whole price is shown as the specification's integer format, without decimals.
      const drill = decodeEntities((await t.app.inject({ url: '/structure/product' })).body)
      expect(drill).toMatch(/12\s990\s₽/)
      expect(drill).not.toMatch(/12\s990,00/)
    })

    it('answers and filters the model API in rubles with kopecks, and refuses a third decimal', async () => {
      const one = await get('/api/many/product', { where: { structureId: id }, select: { price: true } })
      expect(one.json().data).toEqual([{ price: 1299.9 }])
      const at = async (where: object) =>
        (
          await get('/api/many/product', { where: { structureId: id, price: where }, select: { structureId: true } })
        ).json().data.length
      expect(await at({ gte: 1299.9 })).toBe(1)
      expect(await at({ gt: 1299.9 })).toBe(0)
      expect(await at({ lt: 1299.91 })).toBe(1)
      const bad = await get('/api/many/product', { where: { price: { gt: 1299.901 } } })
      expect(bad.statusCode).toBe(400)
      const refused = await sendRecord(t.app, AUTH, 'PATCH', '/api/product', { structureId: id, price: 1299.999 })
      expect(refused.statusCode).toBe(400)
      expect(JSON.parse(refused.body).errors['price']).toBe('Не более 2 знаков после запятой')
    })

    it('sorts a section by the exact price', async () => {
      const section = '/structure/power-tools/'
      const parent = await recordIdAt(t.app.db, section)
      const siblings = await t.app.db
        .selectFrom('structure')
        .innerJoin('product', 'product.structureId', 'structure.id')
        .select(['structure.id'])
        .where('structure.parentId', '=', parent)
        .where('structure.id', '<>', id)
        .where('product.price', 'is not', null)
        .limit(2)
        .execute()
      // Two neighbours a kopeck away on either side.
      await sendRecord(t.app, AUTH, 'PATCH', '/api/product', { structureId: siblings[0].id, price: 1299.89 })
      await sendRecord(t.app, AUTH, 'PATCH', '/api/product', { structureId: siblings[1].id, price: 1299.91 })
      const urls = await t.app.db
        .selectFrom('structure')
        .select(['id', 'urlFull'])
        .where('id', 'in', [siblings[0].id, id, siblings[1].id])
        .execute()
      const urlOf = new Map(urls.map((r) => [r.id, r.urlFull]))
      const html = (await t.app.inject({ url: `${section}?sort=price` })).body
      const order = [siblings[0].id, id, siblings[1].id].map((key) => html.indexOf(`href="${urlOf.get(key)}"`))
      expect(order.every((at) => at >= 0)).toBe(true)
      expect([...order].sort((a, b) => a - b)).toEqual(order)
    })

    it('writes the feed and the price list exactly, and the price list reads its own export back unchanged', async () => {
      const feed = (await t.app.inject({ url: '/feeds/yandex.xml' })).body
      expect(feed).toContain('<price>1299.90</price>')

      const csv = (await get('/api/admin/price-list.csv')).body
      const line = csv.split('\r\n').find((row) => row.includes('Шуруповёрт'))
      expect(line).toContain(';1299,9;')
      const again = await uploadPriceList(t.app, AUTH, Buffer.from(csv))
      expect(again.statusCode, again.body).toBe(200)
      expect(again.json().data).toMatchObject({ updated: 0, created: 0, refused: [] })

      const xlsx = await get('/api/admin/price-list.xlsx')
      const workbook = new ExcelJS.Workbook()
      await workbook.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer)
      const sheet = workbook.worksheets[0]
      const values: unknown[] = []
      sheet.eachRow((row) => {
        if (String(row.getCell(2).value).includes('Шуруповёрт')) values.push(row.getCell(3).value)
      })
      // A number cell Excel computes with, 1299.9 exactly.
      expect(values).toEqual([1299.9])
    })
  })
}

describe('migration 028', () => {
  const cleanups: Array<() => Promise<void> | void> = []
  afterAll(async () => {
    for (const cleanup of cleanups) await cleanup()
  })

  /** A database of the last release: whole rubles, and a 1C offers file staged halfway. */
  async function lastRelease(db: Kysely<any>, schema?: string) {
    const before = Object.fromEntries(Object.entries(MIGRATIONS).filter(([name]) => name < '028'))
    const migrator = new Migrator({ db, provider: { getMigrations: async () => before }, migrationTableSchema: schema })
    const { error } = await migrator.migrateToLatest()
    if (error) throw error instanceof Error ? error : new Error(String(error))
    const now = '2026-01-01T00:00:00.000Z'
    const { id } = await db
      .insertInto('structure')
      .values({ typeId: 'product', title: 'Старый товар', urlFull: '/old', sort: 0, createdAt: now, updatedAt: now })
      .returning('id')
      .executeTakeFirstOrThrow()
    await db
      .insertInto('product')
      .values({ structureId: id, price: 2_147_483_647, oldPrice: null, availability: 'in_stock', featured: 0 })
      .execute()
    await db
      .insertInto('structure')
      .values({ typeId: 'product', title: 'Другой', urlFull: '/other', sort: 1, createdAt: now, updatedAt: now })
      .execute()
    const other = await db
      .selectFrom('structure')
      .select('id')
      .where('urlFull', '=', '/other')
      .executeTakeFirstOrThrow()
    await db
      .insertInto('product')
      .values({ structureId: other.id, price: 3990, oldPrice: 4490, availability: 'in_stock', featured: 0 })
      .execute()
    const offers = [{ id: 'x', name: null, prices: [['pt', 1299.9]], quantity: 1, refused: [] }]
    await db
      .insertInto('exchangeStaged')
      .values({
        sessionId: 's',
        file: 'offers.xml',
        kind: 'offer',
        pos: 0,
        itemId: 'x',
        payload: JSON.stringify(offers),
      })
      .execute()
    await db.destroy()
  }

  async function expectKopecks(db: Awaited<ReturnType<typeof openDatabase>>) {
    const rows = await db.selectFrom('product').select(['price', 'oldPrice']).orderBy('price').execute()
    const staged = await db.selectFrom('exchangeStaged').select('payload').executeTakeFirstOrThrow()
    await db.destroy()
    expect(rows).toEqual([
      { price: 399_000, oldPrice: 449_000 },
      { price: 214_748_364_700, oldPrice: null },
    ])
    expect(JSON.parse(staged.payload)[0].prices).toEqual([['pt', 129_990]])
  }

  it('multiplies every price by 100 on SQLite', async () => {
    const dir = tempDir('vitrina-money-')
    cleanups.push(() => removeDir(dir))
    const file = path.join(dir, 'site.db')
    await lastRelease(new Kysely({ dialect: new SqliteDialect({ database: new SQLite(file) }) }))
    await expectKopecks(await openDatabase({ kind: 'sqlite', path: file, explicit: true }))
  })

  it.runIf(TEST_DATABASE_URL)('and on PostgreSQL, where the column becomes a bigint', async () => {
    const schema = await createTestSchema()
    cleanups.push(() => schema.drop())
    await lastRelease(
      new Kysely({
        dialect: new OwnSchemaPostgresDialect({ pool: new pg.Pool({ connectionString: schema.url, max: 1 }) }),
      }),
      new URL(schema.url).searchParams.get('options')!.split('=').pop(),
    )
    await expectKopecks(await openDatabase({ kind: 'postgres', url: schema.url, waitMs: 0 }))
  })
})
