// The short version of `npm run fuzz` that every test run includes: a few thousand hostile lead
// bodies (every control character and Unicode edge among them) and queries over real sockets, on
// SQLite and on PostgreSQL: not one 5xx or dropped connection, every lead answered with a 2xx in
// the database, no answer over 1 MB. (Times are the fuzzer's report, not this test's.)
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TestApp } from '../helpers/build-test-app'
import { DIALECTS } from '../helpers/dialects'
import { countStoredKeys, MAX_ANSWER_BYTES, runFuzz } from './fuzz'

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
