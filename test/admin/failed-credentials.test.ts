// Failed credentials are counted per client address for every way in (issue #21 item 8): a wrong
// bearer token on a write route, on a lead read, on the deliveries or the inbox, a wrong sign-in
// secret, all in one count shared by every process on the database. Past five in a minute, every
// way in answers 429 with Retry-After in Russian, the right token and a live session too, until
// the window passes.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../../server/app'
import { testConfig } from '../helpers/build-test-app'
import { multipartBody } from '../helpers/multipart'
import { ADMIN_TOKEN, buildAdminApp, removeDir, signIn, SITE, type AdminApp } from './admin-helpers'

const TOO_MANY = 'Слишком много попыток входа. Попробуйте через минуту.'
const RIGHT = { authorization: `Bearer ${ADMIN_TOKEN}` }
const WRONG = { authorization: 'Bearer not-the-token-but-long-enough' }

let site: AdminApp
let address = 0
/** A fresh client address per test: each starts with a count of its own. */
let ip: string
beforeAll(async () => {
  site = await buildAdminApp({ LEAD_RATE_LIMIT: '0' })
})
afterAll(async () => {
  await site?.close()
  removeDir(site.dir)
})
afterEach(() => {
  ip = `198.51.100.${++address}`
})
ip = `198.51.100.${address}`

function write(headers: Record<string, string>, from = ip) {
  const body = multipartBody({
    data: JSON.stringify({ typeId: 'page', title: 'Страница', urlFull: `/p-${Math.random().toString(36).slice(2)}` }),
  })
  return site.app.inject({
    method: 'POST',
    url: '/api/structure',
    payload: body.payload,
    headers: { ...body.headers, ...headers },
    remoteAddress: from,
  })
}

const request = (url: string, headers: Record<string, string>, from = ip) =>
  site.app.inject({ method: 'GET', url, headers, remoteAddress: from })

const signInWith = (secret: string, from = ip) =>
  site.app.inject({
    method: 'POST',
    url: '/api/admin/session',
    headers: { origin: SITE },
    payload: { secret },
    remoteAddress: from,
  })

function expectTooMany(response: Awaited<ReturnType<typeof request>>) {
  expect(response.statusCode, response.body).toBe(429)
  expect(response.json().error).toEqual({ code: 'rate_limited', message: TOO_MANY })
  expect(Number(response.headers['retry-after'])).toBeGreaterThan(0)
  expect(Number(response.headers['retry-after'])).toBeLessThanOrEqual(60)
}

describe('failed credentials', () => {
  it('after five wrong tokens on a write route, refuses the right token with 429 until the minute has passed', async () => {
    for (let i = 0; i < 5; i++) expect((await write(WRONG)).statusCode).toBe(403)
    expectTooMany(await write(RIGHT))
    expectTooMany(await request('/api/many/feedback', RIGHT))
    expectTooMany(await signInWith(ADMIN_TOKEN))
    // Another address is not affected.
    expect((await write(RIGHT, '203.0.113.99')).statusCode).toBe(201)
    site.clock.advance(61_000)
    expect((await write(RIGHT)).statusCode).toBe(201)
  })

  it('counts every way in together: lead reads, deliveries, the inbox, /readyz and the sign-in form', async () => {
    expect((await request('/api/many/feedback', WRONG)).statusCode).toBe(403)
    expect((await request('/api/deliveries', WRONG)).statusCode).toBe(403)
    expect((await request('/api/admin/leads', WRONG)).statusCode).toBe(403)
    expect((await request('/readyz', WRONG)).json()).toEqual({ status: 'ready' })
    expect((await signInWith('wrong-secret')).statusCode).toBe(401)
    expectTooMany(await request('/api/admin/leads', RIGHT))
    expectTooMany(await request('/api/deliveries', RIGHT))
    expectTooMany(await request('/readyz', RIGHT))
    site.clock.advance(61_000)
  })

  it('refuses a live session too while its address is past the limit', async () => {
    const cookie = await signIn(site.app, ADMIN_TOKEN, ip)
    for (let i = 0; i < 5; i++) expect((await request('/api/many/feedback', WRONG)).statusCode).toBe(403)
    expectTooMany(await request('/api/admin/leads', { cookie }))
    site.clock.advance(61_000)
    expect((await request('/api/admin/leads', { cookie })).statusCode).toBe(200)
  })

  it('does not count the right token: a tool may send it all day', async () => {
    for (let i = 0; i < 12; i++) expect((await request('/api/many/feedback', RIGHT)).statusCode).toBe(200)
    for (let i = 0; i < 4; i++) expect((await write(WRONG)).statusCode).toBe(403)
    expect((await write(RIGHT)).statusCode).toBe(201)
    site.clock.advance(61_000)
  })

  it('lets at most five of a burst of parallel guesses be compared', async () => {
    const answers = await Promise.all(Array.from({ length: 30 }, () => request('/api/many/feedback', WRONG)))
    const statuses = answers.map((r) => r.statusCode)
    expect(statuses.filter((s) => s === 403)).toHaveLength(5)
    expect(statuses.filter((s) => s === 429)).toHaveLength(25)
    site.clock.advance(61_000)
  })

  it('shares the count with another process on the same database', async () => {
    const other = await buildApp(testConfig(site.dir, { ADMIN_TOKEN, LEAD_RATE_LIMIT: '0' }), { now: site.clock.now })
    try {
      for (let i = 0; i < 5; i++) expect((await write(WRONG)).statusCode).toBe(403)
      const there = await other.inject({ method: 'GET', url: '/api/many/feedback', headers: RIGHT, remoteAddress: ip })
      expectTooMany(there)
    } finally {
      await other.close()
      site.clock.advance(61_000)
    }
  })
})
