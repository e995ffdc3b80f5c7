// POST /api/cookie-choice, the log behind the cookie notice: a choice is stored with the time, an
// HMAC of the address (the same for the same address, never the address), the user agent and the
// text's version; anything else is a Russian 400 and stores nothing; the body and the rate are
// bounded; the version must be one the site shows (a forged one is a 400, not stored); the owner
// exports the log as CSV.
import { afterEach, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../helpers/build-test-app'
import { DIALECTS } from '../helpers/dialects'

const TOKEN = 'a-test-admin-token-0123'
let t: TestApp | null = null
afterEach(async () => {
  await t?.close()
  t = null
})

const choose = (app: TestApp['app'], payload: unknown, ip = '203.0.113.5') =>
  app.inject({
    method: 'POST',
    url: '/api/cookie-choice',
    remoteAddress: ip,
    headers: { 'user-agent': 'Mozilla/5.0 Test\u0000Browser' },
    payload: payload as Record<string, unknown>,
  })

/** The version the site's cookie notice sends: the home page's site's. */
async function currentVersion(test: TestApp): Promise<string> {
  const version = (await test.app.content.getSite('/'))?.cookieVersion
  expect(version).toMatch(/^sha256:[0-9a-f]{16}$/)
  return version as string
}

describe('the cookie choices log', () => {
  it('keeps each choice with a keyed hash of the address, and the owner exports it', async () => {
    t = await buildTestApp({ ADMIN_TOKEN: TOKEN })
    const version = await currentVersion(t)
    expect((await choose(t.app, { analytics: true, version })).statusCode).toBe(204)
    expect((await choose(t.app, { analytics: false, version })).statusCode).toBe(204)
    expect((await choose(t.app, { analytics: false, version }, '203.0.113.6')).statusCode).toBe(204)
    const rows = await t.app.db.selectFrom('cookieChoice').selectAll().orderBy('id').execute()
    expect(rows.map((row) => row.analytics)).toEqual([1, 0, 0])
    expect(rows[0].ipHash).toBe(rows[1].ipHash)
    expect(rows[2].ipHash).not.toBe(rows[0].ipHash)
    expect(JSON.stringify(rows)).not.toContain('203.0.113')
    expect(rows[0].userAgent).toBe('Mozilla/5.0 Test Browser')

    const csv = await t.app.inject({
      method: 'GET',
      url: '/api/admin/privacy/cookie-choices.csv',
      headers: { authorization: `Bearer ${TOKEN}` },
    })
    expect(csv.statusCode).toBe(200)
    expect(csv.headers['content-type']).toMatch(/^text\/csv/)
    expect(csv.body.split('\r\n').filter(Boolean)).toHaveLength(4)
    expect(csv.body).toContain('разрешена')
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/privacy/cookie-choices.csv' })).statusCode).toBe(401)
  })

  it('refuses anything but a choice and a version, and bounds size and rate', async () => {
    t = await buildTestApp()
    for (const body of [
      {},
      { analytics: 'yes', version: 'v' },
      { analytics: true, version: 'a b' },
      { analytics: true, version: 'v', extra: 1 },
      [],
    ]) {
      const res = await choose(t.app, body)
      expect(res.statusCode, JSON.stringify(body)).toBe(400)
      expect(res.json<{ error: { message: string } }>().error.message).toMatch(/[а-я]/)
    }
    const big = await choose(t.app, { analytics: true, version: 'x'.repeat(2000) })
    expect(big.statusCode).toBe(413)
    expect(await t.app.db.selectFrom('cookieChoice').select('id').execute()).toEqual([])
    const version = await currentVersion(t)
    const statuses: number[] = []
    for (let i = 0; i < 22; i++)
      statuses.push((await choose(t.app, { analytics: false, version }, '198.51.100.1')).statusCode)
    expect(statuses.slice(0, 20).every((status) => status === 204)).toBe(true)
    expect(statuses.slice(20)).toEqual([429, 429])
  })
})

describe.each(DIALECTS)('a cookie choice names a version the site has ($name)', (dialect) => {
  it.skipIf(!dialect.available)('refuses a forged version and stores nothing', async () => {
    t = await dialect.build()
    for (const version of ['forged-version-1', 'sha256:00112233aabbccdd']) {
      const res = await choose(t.app, { analytics: true, version })
      expect(res.statusCode, version).toBe(400)
      expect(res.json<{ error: { message: string } }>().error.message).toMatch(/верси[яи] текста/)
    }
    expect(await t.app.db.selectFrom('cookieChoice').select('id').execute()).toEqual([])
    const version = await currentVersion(t)
    expect((await choose(t.app, { analytics: true, version })).statusCode).toBe(204)
    const rows = await t.app.db.selectFrom('cookieChoice').select('textVersion').execute()
    expect(rows).toEqual([{ textVersion: version }])
  })
})
