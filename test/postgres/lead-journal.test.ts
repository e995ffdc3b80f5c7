// Leads accepted while the database is down: a TCP proxy the test controls cuts the app off the
// machine's PostgreSQL. Leads posted during the cut are accepted (202, or the thank-you page),
// journaled with an fsync; when the database is back they are stored exactly once, with their
// consent record and the time they were sent, and delivered; readyz shows the journal meanwhile.
import fs from 'node:fs'
import path from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_TOKEN } from '../api/helpers'
import { buildTestApp, type TestApp } from '../helpers/build-test-app'
import { createTestSchema, TEST_DATABASE_URL, type TestSchema } from '../helpers/postgres'
import { startHttpReceiver, waitFor, type HttpReceiver } from '../helpers/receivers'
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy'

/** The journal's size on /readyz is the owner's to see. */
const OWNER = { authorization: `Bearer ${ADMIN_TOKEN}` }
const SECRET = `whsec_${Buffer.from('a journal test secret, 24 bytes or more').toString('base64')}`

describe.skipIf(!TEST_DATABASE_URL)('leads while PostgreSQL is unreachable', () => {
  let schema: TestSchema
  let proxy: TcpProxy
  let hook: HttpReceiver
  let t: TestApp
  let direct: pg.Client

  beforeAll(async () => {
    schema = await createTestSchema()
    const target = new URL(TEST_DATABASE_URL!)
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) })
    hook = await startHttpReceiver((request) => String(request.headers['webhook-id']))
    const url = new URL(schema.url)
    url.host = `127.0.0.1:${proxy.port}`
    t = await buildTestApp({
      DATABASE_URL: url.href,
      LEAD_RATE_LIMIT: '0',
      LEAD_WEBHOOK_URL: `${hook.url}/crm`,
      LEAD_WEBHOOK_SECRET: SECRET,
      ADMIN_TOKEN,
    })
    direct = new pg.Client({ connectionString: schema.url }) // around the proxy: what is really stored
    await direct.connect()
  })
  afterAll(async () => {
    await t?.close()
    await direct?.end()
    await hook?.close()
    await proxy?.close()
    await schema?.drop()
  })

  const post = (email: string, key: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/feedback',
      headers: { 'idempotency-key': key, 'user-agent': 'Journal test' },
      payload: { username: 'Ольга', phone: '+7 912 345-67-89', email, consent: true },
    })

  it('accepts leads during the cut and stores each exactly once when the database is back', async () => {
    // The consent text is read once while the database is up, as a live site would have.
    expect((await post('before@example.ru', 'before-cut')).statusCode).toBe(201)

    proxy.cut()
    const sentAt = Date.now()
    const answers = await Promise.all([
      post('one@example.ru', 'cut-1'),
      post('two@example.ru', 'cut-2'),
      post('one@example.ru', 'cut-1'), // the same form sent twice: one lead
    ])
    expect(answers.map((res) => res.statusCode)).toEqual([202, 202, 202])
    const noJs = await t.app.inject({
      method: 'POST',
      url: '/api/feedback',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'username=Пётр&phone=%2B7+912+345-67-80&email=nojs%40example.ru&consent=on&idempotencyKey=cut-nojs',
    })
    expect([noJs.statusCode, noJs.headers.location]).toEqual([303, '/spasibo'])

    const ready = await t.app.inject({ method: 'GET', url: '/readyz', headers: OWNER })
    expect(ready.statusCode).toBe(503)
    expect(ready.json().journal.bytes).toBeGreaterThan(0)
    // A stranger learns that the site is not ready, and nothing more.
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).json()).toEqual({ status: 'unavailable' })
    const journal = fs.readdirSync(path.join(t.dir, 'journal')).map((f) => path.join(t.dir, 'journal', f))
    expect(journal.some((file) => fs.statSync(file).size > 0)).toBe(true)

    proxy.heal()
    const count = async () =>
      (await direct.query<{ n: string }>("select count(*) as n from feedback where email <> 'before@example.ru'"))
        .rows[0].n
    await waitFor(async () => (await count()) === '3', 'the journaled leads stored', 20_000)
    const rows = (
      await direct.query<{
        email: string
        idempotencyKey: string
        createdAt: string
        consentUserAgent: string | null
        consentVersion: string
      }>(
        'select email, "idempotencyKey", "createdAt", "consentUserAgent", "consentVersion" from feedback order by email',
      )
    ).rows
    const journaled = rows.filter((row) => row.email !== 'before@example.ru')
    expect(journaled.map((row) => row.email)).toEqual(['nojs@example.ru', 'one@example.ru', 'two@example.ru'])
    // Stored with the time it was sent and the consent record of that moment.
    for (const row of journaled) {
      expect(Math.abs(Date.parse(row.createdAt) - sentAt)).toBeLessThan(2000)
      expect(row.consentVersion).toBe(rows.find((r) => r.email === 'before@example.ru')!.consentVersion)
    }
    expect(journaled.find((row) => row.email === 'one@example.ru')!.consentUserAgent).toBe('Journal test')

    await waitFor(() => new Set(hook.requests.map((r) => r.headers['webhook-id'])).size === 4, 'deliveries', 20_000)
    await waitFor(
      async () => (await t.app.inject({ method: 'GET', url: '/readyz', headers: OWNER })).json().journal?.bytes === 0,
      'empty journal',
    )
  })
})
