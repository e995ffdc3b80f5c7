// The short version of `npm run fuzz` that every test run includes: a few thousand hostile lead
// bodies and queries over real sockets, and not one 5xx or dropped connection.
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../helpers/build-test-app'
import { runFuzz } from './fuzz'

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
