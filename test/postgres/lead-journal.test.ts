// Leads accepted while the database is down: a TCP proxy the test controls cuts the app off the
// machine's PostgreSQL. Leads posted during the cut are accepted (202, or the thank-you page),
// journaled with an fsync; when the database is back they are stored exactly once, with their
// consent record and the time they were sent, and delivered; readyz shows the journal meanwhile.
// A record PostgreSQL refuses for good (a NUL an older release journaled) goes to the dead letters,
// where the owner sees it, and every lead behind it is stored.
import fs from 'node:fs'
import path from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { encodeRecord } from '../../server/leads/intake/journal'
import { buildTestApp, type TestApp } from '../helpers/build-test-app'
import { createTestSchema, TEST_DATABASE_URL, type TestSchema } from '../helpers/postgres'
import { startHttpReceiver, waitFor, type HttpReceiver } from '../helpers/receivers'
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy'

const ADMIN_TOKEN = 'journal-admin-token-0123456789'
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
      ADMIN_TOKEN,
      LEAD_WEBHOOK_URL: `${hook.url}/crm`,
      LEAD_WEBHOOK_SECRET: SECRET,
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

  it('moves a poisoned record first in line to the dead letters and stores the 100 leads behind it', async () => {
    proxy.cut()
    // What a release before the control-character rule journaled: a NUL PostgreSQL cannot hold.
    fs.mkdirSync(path.join(t.dir, 'journal'), { recursive: true })
    fs.appendFileSync(
      path.join(t.dir, 'journal', `leads-${process.pid}.journal`),
      encodeRecord({
        at: new Date().toISOString(),
        lead: { username: 'Яд\u0000', phone: '+7 912 345-67-89', email: 'poison@example.ru', consent: true },
        spam: false,
        idempotencyKey: 'poisoned-1',
        origin: { sourceUrl: '/', product: null, utm: null },
        consent: { ip: '203.0.113.7', userAgent: null, version: 'label-only' },
      }),
    )
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) => post(`good${i}@example.ru`, `good-${i}`).then((res) => res.statusCode)),
    )
    expect(new Set(answers)).toEqual(new Set([202]))

    proxy.heal()
    const good = async () =>
      (await direct.query<{ n: string }>("select count(*) as n from feedback where email like 'good%@example.ru'"))
        .rows[0].n
    await waitFor(async () => (await good()) === '100', 'the 100 leads behind the poisoned one stored', 30_000)
    await t.app.leadJournal.drain()
    expect(t.app.leadJournal.bytes()).toBe(0)

    // The poisoned one is in the dead-letter file, and the owner sees it in the back office.
    const file = fs.readFileSync(path.join(t.dir, 'journal', 'dead-letters.journal'), 'utf8')
    expect(file).toContain('poison@example.ru')
    expect(file).toContain('22021')
    const letters = await t.app.inject({
      url: '/api/admin/leads/dead-letters',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    })
    expect(letters.json().data).toEqual([
      expect.objectContaining({ username: 'Яд\u0000', email: 'poison@example.ru', phone: '+7 912 345-67-89' }),
    ])
    const ready = await t.app.inject({ method: 'GET', url: '/readyz', headers: OWNER })
    expect(ready.json().journal).toEqual({ bytes: 0, deadLetters: 1 })
  }, 60_000)
})
