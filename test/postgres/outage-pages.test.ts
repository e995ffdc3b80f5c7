// Pages while the database is down: a TCP proxy the test controls stands between the app and the
// machine's PostgreSQL. During a cut, pages seen before keep coming from the page cache; a page
// never seen gets a short Russian 503 with Retry-After; when the database is back, everything is
// served again without a restart, and the process never falls over.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../helpers/build-test-app'
import { createTestSchema, TEST_DATABASE_URL, type TestSchema } from '../helpers/postgres'
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy'
import { ADMIN_TOKEN, signIn } from '../admin/admin-helpers'

// The app's clock: its content version check looks at the database again once a second of it has passed.
let clock = Date.now()
const passVersionCheck = () => (clock += 1100)

describe.skipIf(!TEST_DATABASE_URL)('pages while PostgreSQL is unreachable', () => {
  let schema: TestSchema
  let proxy: TcpProxy
  let t: TestApp

  beforeAll(async () => {
    schema = await createTestSchema()
    const target = new URL(TEST_DATABASE_URL!)
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) })
    const url = new URL(schema.url)
    url.host = `127.0.0.1:${proxy.port}`
    t = await buildTestApp({ DATABASE_URL: url.href, ADMIN_TOKEN }, { now: () => new Date(clock) })
  })
  afterAll(async () => {
    await t?.close()
    await proxy?.close()
    await schema?.drop()
  })

  const get = (url: string) => t.app.inject({ method: 'GET', url })

  it('serves the last good pages, answers a new one with 503, and recovers by itself', async () => {
    const before = await get('/structure/')
    expect(before.statusCode).toBe(200)
    const cookie = await signIn(t.app)

    proxy.cut()
    passVersionCheck()
    const kept = await get('/structure/')
    expect(kept.statusCode).toBe(200)
    expect(kept.body).toBe(before.body)
    const conditional = await t.app.inject({
      method: 'GET',
      url: '/structure/',
      headers: { 'if-none-match': String(before.headers.etag) },
    })
    expect(conditional.statusCode).toBe(304)

    // The API and the back office say "try again later", not "server error".
    const read = await get(`/api/many/structure?query=${encodeURIComponent('{"where":{"typeId":"section"}}')}`)
    expect(read.statusCode).toBe(503)
    expect(read.json().error.message).toBe('Сервис временно недоступен. Попробуйте позже')
    const owner = await t.app.inject({ method: 'GET', url: '/api/admin/session', headers: { cookie } })
    expect(owner.statusCode).toBe(503)

    const unseen = await get('/structure/product')
    expect(unseen.statusCode).toBe(503)
    expect(unseen.headers['retry-after']).toBe('30')
    expect(unseen.headers['cache-control']).toBe('no-store')
    expect(unseen.body).toContain('Сайт временно недоступен')

    proxy.heal()
    const deadline = Date.now() + 10_000
    let status = 0
    while (Date.now() < deadline) {
      passVersionCheck()
      await new Promise((resolve) => setTimeout(resolve, 100)) // the pool reconnects on its own time
      status = (await get('/structure/product')).statusCode
      if (status === 200) break
    }
    expect(status).toBe(200)
  })
})
