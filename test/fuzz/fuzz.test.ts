// The short version of `npm run fuzz` that every test run includes: a few thousand hostile lead
// bodies (every control character and Unicode edge among them) and queries over real sockets, on
// SQLite and on PostgreSQL: not one 5xx or dropped connection, every lead answered with a 2xx in
// the database, no answer over 1 MB; then generated reads with relations up to and past the allowed
// depth, loops included, on both: no 5xx and no answer over 1 MB. (Times are the fuzzer's report,
// `npm run fuzz`, not this test's.)
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, listen, type TestApp } from '../helpers/build-test-app'
import { DIALECTS } from '../helpers/dialects'
import { createTestSchema, TEST_DATABASE_URL } from '../helpers/postgres'
import { countStoredKeys, MAX_ANSWER_BYTES, runFuzz } from './fuzz'
import { runQueryFuzz, seedLargeSection } from './relation-queries'

const ADMIN_TOKEN = 'fuzz-admin-token-0123456789'

describe.each(DIALECTS)('the fuzzer over real sockets on $name', (dialect) => {
  let t: TestApp
  let url: string
  beforeAll(async () => {
    if (!dialect.available) return
    t = await dialect.build({ LEAD_RATE_LIMIT: '0', ADMIN_TOKEN })
    await t.app.listen({ port: 0, host: '127.0.0.1' })
    url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`
  })
  afterAll(async () => {
    await t?.close()
  })

  it.runIf(dialect.available)(
    'gets no 5xx from 1,500 lead bodies and 500 queries, and finds every acknowledged lead stored',
    async () => {
      const result = await runFuzz({ url, leads: 1500, queries: 500, adminToken: ADMIN_TOKEN, seed: Date.now() })
      expect(result.sent).toBe(2000)
      expect(result.failures).toEqual([])
      expect(result.maxBytes).toBeLessThanOrEqual(MAX_ANSWER_BYTES)
      // The mix reaches the interesting answers, not only one kind of rejection.
      expect(result.statuses['201']).toBeGreaterThan(0)
      expect(result.statuses['400']).toBeGreaterThan(0)
      expect(result.statuses['200']).toBeGreaterThan(0)
      const stored = await countStoredKeys(async (keys) => {
        const row = await t.app.db
          .selectFrom('feedback')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('idempotencyKey', 'in', keys)
          .executeTakeFirstOrThrow()
        return Number(row.n)
      }, result.acknowledged)
      expect(stored).toBe(result.acknowledged.size)
    },
  )
})

async function queryFamilyFindsNothing(target: string) {
  await seedLargeSection(target, ADMIN_TOKEN)
  const result = await runQueryFuzz({ url: target, queries: 400, adminToken: ADMIN_TOKEN, seed: Date.now() })
  expect(result.failures).toEqual([])
  expect(result.oversized).toEqual([])
  // Loops are generated, and refused; most reads still answer.
  expect(result.refusals['way back']).toBeGreaterThan(0)
  expect(result.statuses['200']).toBeGreaterThan(result.sent / 2)
}

describe('generated reads with relations', () => {
  it('get no 5xx and no answer over 1 MB on SQLite', async () => {
    const sqlite = await buildTestApp({ ADMIN_TOKEN })
    try {
      await queryFamilyFindsNothing(await listen(sqlite))
    } finally {
      await sqlite.close()
    }
  })

  it.runIf(TEST_DATABASE_URL)('get no 5xx and no answer over 1 MB on PostgreSQL', async () => {
    const schema = await createTestSchema()
    const pg = await buildTestApp({ ADMIN_TOKEN, DATABASE_URL: schema.url })
    try {
      await queryFamilyFindsNothing(await listen(pg))
    } finally {
      await pg.close()
      await schema.drop()
    }
  })
})
