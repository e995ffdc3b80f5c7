// The short version of `npm run fuzz` that every test run includes: a few thousand hostile lead
// bodies and queries over real sockets, and not one 5xx or dropped connection; then generated reads
// with relations up to and past the allowed depth, loops included, on SQLite and PostgreSQL: no
// 5xx and no answer over 1 MB (their times are `npm run fuzz`'s to print, not a test's to assert).
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, listen, type TestApp } from '../helpers/build-test-app'
import { createTestSchema, TEST_DATABASE_URL } from '../helpers/postgres'
import { runFuzz } from './fuzz'
import { runQueryFuzz, seedLargeSection } from './relation-queries'

const ADMIN_TOKEN = 'fuzz-admin-token-0123456789'
let t: TestApp
let url: string

beforeAll(async () => {
  t = await buildTestApp({ LEAD_RATE_LIMIT: '0', ADMIN_TOKEN })
  await t.app.listen({ port: 0, host: '127.0.0.1' })
  url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`
})
afterAll(async () => {
  await t?.close()
})

describe('the fuzzer over real sockets', () => {
  it('gets no 5xx and no dropped connection from 1,500 lead bodies and 500 queries', async () => {
    const result = await runFuzz({ url, leads: 1500, queries: 500, adminToken: ADMIN_TOKEN, seed: Date.now() })
    expect(result.sent).toBe(2000)
    expect(result.failures).toEqual([])
    // The mix reaches the interesting answers, not only one kind of rejection.
    expect(result.statuses['201']).toBeGreaterThan(0)
    expect(result.statuses['400']).toBeGreaterThan(0)
    expect(result.statuses['200']).toBeGreaterThan(0)
  })
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
    await queryFamilyFindsNothing(url)
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
