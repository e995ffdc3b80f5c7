// LEAD_RATE_LIMIT holds for the whole site: two processes on one database (two PM2 workers, or
// two hosts on one PostgreSQL) share one count per client address.
import { afterEach, describe, expect, it } from 'vitest'
import { buildApp, type App } from '../../server/app'
import { countRequest } from '../../server/http/rate-limit-store'
import { buildTestApp, testConfig, type TestApp } from '../helpers/build-test-app'
import { createTestSchema, TEST_DATABASE_URL, type TestSchema } from '../helpers/postgres'

const lead = { username: 'Иван', phone: '+7 (999) 123-45-67', email: 'ivan@example.ru', consent: true }
const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** Two apps on one database: the second opens what the first created. */
async function twoApps(env: Record<string, string>): Promise<[App, App]> {
  const first: TestApp = await buildTestApp({ LEAD_RATE_LIMIT: '3', SEED_DEMO: 'false', ...env })
  cleanups.push(() => first.close())
  const second = await buildApp(testConfig(first.dir, { LEAD_RATE_LIMIT: '3', SEED_DEMO: 'false', ...env }))
  cleanups.push(() => second.close())
  return [first.app, second]
}

async function sharesOneCount([a, b]: [App, App]) {
  const post = (app: App, ip = '198.51.100.7') =>
    app.inject({ method: 'POST', url: '/api/feedback', payload: lead, remoteAddress: ip })
  expect((await post(a)).statusCode).toBe(201)
  expect((await post(b)).statusCode).toBe(201)
  expect((await post(a)).statusCode).toBe(201)
  const limited = await post(b)
  expect(limited.statusCode).toBe(429)
  expect(limited.json().error.message).toMatch(/Слишком много заявок/)
  // Another address has a count of its own.
  expect((await post(b, '198.51.100.8')).statusCode).toBe(201)
}

describe('the lead rate limit across processes', () => {
  it('counts one address across two apps on one SQLite file', async () => {
    await sharesOneCount(await twoApps({}))
  })

  it.skipIf(!TEST_DATABASE_URL)('counts one address across two apps on one PostgreSQL database', async () => {
    const schema: TestSchema = await createTestSchema()
    cleanups.push(() => schema.drop())
    await sharesOneCount(await twoApps({ DATABASE_URL: schema.url }))
  })

  it('starts a new window when the old one has run out, and never stores the address', async () => {
    const t = await buildTestApp({ SEED_DEMO: 'false' })
    cleanups.push(() => t.close())
    const start = 1_700_000_000_000
    expect(await countRequest(t.app.db, '203.0.113.1', 60_000, start)).toEqual({ current: 1, ttl: 60_000 })
    expect(await countRequest(t.app.db, '203.0.113.1', 60_000, start + 59_000)).toEqual({ current: 2, ttl: 1_000 })
    expect(await countRequest(t.app.db, '203.0.113.1', 60_000, start + 60_000)).toEqual({ current: 1, ttl: 60_000 })
    const keys = await t.app.db.selectFrom('rateLimit').select('key').execute()
    expect(keys).toHaveLength(1)
    expect(keys[0].key).not.toContain('203.0.113')
  })
})
