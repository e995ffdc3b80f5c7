// PostgreSQL's planner statistics during a 1C exchange (issue 36: search stays on its indexes while a
// first import fills the catalogue; issue 43: nothing an import does may hold a lead). The exchange
// refreshes them as a first import grows the catalogue (ANALYZE at 2,000 products, 4,000, …), but
// only when its steps created records: at 110,000 products each ANALYZE took 1–1.4 s of the
// database, and the same catalogue sent again or an offers file ran six of them for nothing the
// planner did not already know. Counted in pg_stat_user_tables, not timed.
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ANALYZE_AFTER } from '../../server/catalogue/write-door'
import { ADMIN_TOKEN } from '../api/helpers'
import type { TestApp } from '../helpers/build-test-app'
import { DIALECTS } from '../helpers/dialects'
import { enableExchange, EXCHANGE_ENV, importXml, injectTransport, offersXml, OneCClient } from '../helpers/one-c'

const postgres = DIALECTS.find((d) => d.name === 'PostgreSQL')!
const COUNT = ANALYZE_AFTER + 300

describe.runIf(postgres.available)('the planner statistics during a 1C exchange on PostgreSQL', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await postgres.build({ ADMIN_TOKEN, ...EXCHANGE_ENV })
    await enableExchange(t.app)
  })
  afterAll(() => t?.close())

  /** How many times the product table of this test's schema was analyzed by a statement (not autovacuum). */
  async function analyzed(): Promise<number> {
    const { rows } = await sql<{ count: string }>`
      select analyze_count as count from pg_stat_user_tables
      where relname = 'product' and schemaname = current_schema()`.execute(t.app.db)
    return Number(rows[0].count)
  }

  const catalogue = importXml(
    {
      groups: [{ id: 'g-1', name: 'Крепёж' }],
      products: Array.from({ length: COUNT }, (_, i) => ({
        id: `stat-${i}`,
        name: `Шуруп ${i}`,
        article: `SH-${i}`,
        groups: ['g-1'],
      })),
    },
    { onlyChanges: false },
  )
  const offers = offersXml({
    priceTypes: [{ id: 'retail', name: 'Розничная' }],
    offers: Array.from({ length: COUNT }, (_, i) => ({
      id: `stat-${i}`,
      prices: { retail: 100 + (i % 50) },
      quantity: 5,
    })),
  })
  const exchange = async (files: Record<string, Buffer>) => {
    const answers = await new OneCClient(injectTransport(t.app)).exchange(files)
    for (const answer of answers) expect(answer.lines[0], answer.body).toBe('success')
  }

  it('refreshes them while a first exchange fills the catalogue', async () => {
    const before = await analyzed()
    await exchange({ 'import.xml': catalogue })
    const made = await t.app.db
      .selectFrom('exchangeRecord')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirst()
    expect(Number(made?.n)).toBe(COUNT + 1)
    expect(await analyzed()).toBeGreaterThan(before)
  })

  it('leaves them alone when the same catalogue comes again, and for an offers file', async () => {
    const before = await analyzed()
    await exchange({ 'import.xml': catalogue })
    expect(await analyzed()).toBe(before)
    await exchange({ 'offers.xml': offers })
    expect(await analyzed()).toBe(before)
    const price = await t.app.db
      .selectFrom('exchangeRecord')
      .innerJoin('product', 'product.structureId', 'exchangeRecord.structureId')
      .select('product.price')
      .where('exchangeRecord.externalId', '=', 'stat-7')
      .executeTakeFirst()
    expect(Number(price?.price)).toBeGreaterThan(0)
  })
})
