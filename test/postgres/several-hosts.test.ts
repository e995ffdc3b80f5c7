// Two hosts behind one load balancer, as issue 25 runs them: host A is a buildApp in this process
// on its own port, its database reached through a proxy the test can cut; host B is the production
// build in another process. Both share one PostgreSQL and one bucket (a real S3 server in this
// process). What one host does, the other sees: images, content writes, sessions, rate limits;
// each lead is delivered once, and a host cut off from the database loses no lead.
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_TOKEN } from '../api/helpers'
import { buildTestApp, listen, type TestApp } from '../helpers/build-test-app'
import { photo, postProduct, variantUrls } from '../helpers/media'
import { createTestSchema, TEST_DATABASE_URL, type TestSchema } from '../helpers/postgres'
import { ensureBuild, startProdServer, type ProdServer } from '../helpers/prod-server'
import { startHttpReceiver, waitFor, type HttpReceiver } from '../helpers/receivers'
import { startTestBucket, type TestBucket } from '../helpers/s3'
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy'

const PUBLIC_URL = 'https://shop.example.ru'
const ADMIN_PASSWORD = 'a-shared-password'
const SECRET = `whsec_${Buffer.from('the same secret on every host').toString('base64')}`

describe.skipIf(!TEST_DATABASE_URL)('two hosts on one PostgreSQL and one bucket', () => {
  let schema: TestSchema
  let bucket: TestBucket
  let hook: HttpReceiver
  let proxy: TcpProxy
  let direct: pg.Client
  let a: TestApp
  let b: ProdServer
  const hosts: Record<'A' | 'B', string> = { A: '', B: '' }

  beforeAll(async () => {
    ensureBuild()
    ;[schema, bucket, hook] = await Promise.all([
      createTestSchema(),
      startTestBucket(),
      startHttpReceiver((request) => String(request.headers['webhook-id'])),
    ])
    const target = new URL(TEST_DATABASE_URL!)
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) })
    const throughProxy = new URL(schema.url)
    throughProxy.host = `127.0.0.1:${proxy.port}`
    // What must be the same on every host: the database, the bucket, the secrets, PUBLIC_URL.
    const shared = {
      ...bucket.env,
      PUBLIC_URL,
      ADMIN_TOKEN,
      ADMIN_PASSWORD,
      LEAD_WEBHOOK_URL: `${hook.url}/crm`,
      LEAD_WEBHOOK_SECRET: SECRET,
      LEAD_RATE_LIMIT: '3',
      LEAD_MIN_FILL_SECONDS: '0',
      TRUST_PROXY: '127.0.0.1',
    }
    a = await buildTestApp({ ...shared, DATABASE_URL: throughProxy.href })
    hosts.A = await listen(a)
    b = await startProdServer({ ...shared, DATABASE_URL: schema.url })
    hosts.B = b.url
    direct = new pg.Client({ connectionString: schema.url })
    await direct.connect()
  })
  afterAll(async () => {
    await b?.stop()
    b?.cleanup()
    await a?.close()
    await direct?.end()
    await Promise.all([hook?.close(), bucket?.close(), proxy?.close()])
    await schema?.drop()
  })

  /** A request to a host from a visitor at `address` (the load balancer's X-Forwarded-For). */
  const call = (host: 'A' | 'B', path: string, address: string, init: RequestInit = {}) =>
    fetch(hosts[host] + path, {
      ...init,
      redirect: 'manual',
      headers: { 'x-forwarded-for': address, origin: PUBLIC_URL, ...(init.headers as Record<string, string>) },
    })
  const postLead = (host: 'A' | 'B', address: string, email: string, key = email) =>
    call(host, '/api/feedback', address, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': key },
      body: JSON.stringify({ username: 'Ирина', phone: '+7 912 345-67-89', email, consent: true }),
    })
  const stored = async (where: string) =>
    Number((await direct.query<{ n: string }>(`select count(*) as n from feedback where ${where}`)).rows[0].n)

  // A product photo uploaded on host A: the page's variants, each test taking its own.
  let image: string
  let variants: string[]
  beforeAll(async () => {
    const res = await postProduct(a.app, ADMIN_TOKEN, '/structure/power-tools/two-hosts', await photo(900, 600))
    expect(res.statusCode, res.body).toBe(201)
    image = res.json().data.product.image
    variants = variantUrls(await (await call('A', '/structure/power-tools/two-hosts', '10.0.0.1')).text())
    expect(variants.length).toBe(4) // 320, 640 and 900 px AVIF, and the 640 px WebP fallback
  })

  it('serves an image uploaded on one host, with every variant its page lists, from the other', async () => {
    const page = await call('B', '/structure/power-tools/two-hosts', '10.0.0.1')
    expect(page.status).toBe(200)
    expect(variantUrls(await page.text())).toEqual(variants)
    for (const url of [`/media/${image}`, ...variants]) {
      const image = await call('B', url, '10.0.0.1')
      expect([image.status, image.headers.get('cache-control')], url).toEqual([
        200,
        'public, max-age=31536000, immutable',
      ])
    }
  })

  it('makes a variant missing from the bucket once, for visitors of both hosts at once', async () => {
    const variant = variants[3].slice('/media/'.length)
    await bucket.remove(variant)
    const start = bucket.created.length
    const answers = await Promise.all(
      (['A', 'B', 'A', 'B', 'B'] as const).map((host) => call(host, `/media/${variant}`, '10.0.0.2')),
    )
    expect(answers.map((res) => res.status)).toEqual([200, 200, 200, 200, 200])
    expect(bucket.created.slice(start).filter((key) => key === variant)).toEqual([variant])
  })

  it('serves a content write taken by one host on the other within a second', async () => {
    expect(await (await call('B', '/structure/power-tools/', '10.0.0.3')).text()).not.toContain('Инструмент для дома')
    const section = await direct.query<{ id: number }>(
      `select id from structure where "urlFull" = '/structure/power-tools/'`,
    )
    const body = new FormData()
    body.set('data', JSON.stringify({ id: section.rows[0].id, title: 'Инструмент для дома' }))
    const patch = await call('A', '/api/structure', '10.0.0.3', {
      method: 'PATCH',
      body,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    })
    expect(patch.status).toBe(200)
    // Host B checks the content version at most once a second; the rendering adds its own time.
    await waitFor(
      async () =>
        (await (await call('B', '/structure/power-tools/', '10.0.0.3')).text()).includes('Инструмент для дома'),
      'host B serving the write',
      3_000,
    )
  })

  it('delivers each lead once, whichever host took it', async () => {
    const emails = ['A', 'B', 'A', 'B'].map((host, i) => `${host.toLowerCase()}${i}@example.ru`)
    const answers = await Promise.all(
      emails.map((email, i) => postLead(i % 2 === 0 ? 'A' : 'B', `10.0.1.${i + 1}`, email)),
    )
    expect(answers.map((res) => res.status)).toEqual([201, 201, 201, 201])
    const ids = await Promise.all(answers.map(async (res) => ((await res.json()) as { data: { id: number } }).data.id))
    await waitFor(
      async () => (await direct.query(`select 1 from "leadDelivery" where status <> 'sent'`)).rowCount === 0,
      'every delivery sent',
    )
    const delivered = hook.requests.map((request) => String(request.headers['webhook-id']))
    for (const id of ids)
      expect(
        delivered.filter((webhookId) => webhookId === `lead-${id}`),
        `lead ${id}`,
      ).toHaveLength(1)
  })

  it('counts the lead limit across both hosts', async () => {
    const address = '10.0.2.1'
    const statuses = []
    for (const [i, host] of (['A', 'B', 'A', 'B'] as const).entries()) {
      statuses.push((await postLead(host, address, `limit${i}@example.ru`)).status)
    }
    expect(statuses).toEqual([201, 201, 201, 429]) // LEAD_RATE_LIMIT=3 a minute, for the site as a whole
  })

  it('counts the sign-in limit across both hosts', async () => {
    const signIn = (host: 'A' | 'B', secret: string) =>
      call(host, '/api/admin/session', '10.0.3.1', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ secret }),
      })
    const statuses = []
    for (const host of ['A', 'B', 'A', 'B', 'A'] as const) statuses.push((await signIn(host, 'wrong password')).status)
    expect(statuses).toEqual([401, 401, 401, 401, 401])
    const sixth = await signIn('B', ADMIN_PASSWORD)
    expect(sixth.status).toBe(429)
    expect(((await sixth.json()) as { error: { message: string } }).error.message).toBe(
      'Слишком много попыток входа. Попробуйте через минуту.',
    )
  })

  it('honours a back-office session made on one host on the other, and its sign-out on both', async () => {
    const signedIn = await call('A', '/api/admin/session', '10.0.4.1', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ secret: ADMIN_PASSWORD }),
    })
    expect(signedIn.status).toBe(204)
    const cookie = signedIn.headers.getSetCookie()[0].split(';')[0]
    const leads = await call('B', '/api/admin/leads', '10.0.4.1', { headers: { cookie } })
    expect(leads.status).toBe(200)
    expect(((await leads.json()) as { data: unknown[] }).data.length).toBeGreaterThan(0)
    expect((await call('B', '/api/admin/session', '10.0.4.1', { method: 'DELETE', headers: { cookie } })).status).toBe(
      204,
    )
    expect((await call('A', '/api/admin/session', '10.0.4.1', { headers: { cookie } })).status).toBe(401)
  })

  it('journals the leads of a host cut off from the database and drains them once it is back, without duplicates', async () => {
    const variant = variants[2].slice('/media/'.length)
    await bucket.remove(variant)
    proxy.cut()
    try {
      const answers = [
        await postLead('A', '10.0.5.1', 'cut-1@example.ru'),
        await postLead('A', '10.0.5.2', 'cut-2@example.ru'),
        await postLead('A', '10.0.5.1', 'cut-1@example.ru'), // the same form sent twice: one lead
      ]
      expect(answers.map((res) => res.status)).toEqual([202, 202, 202])
      expect((await postLead('B', '10.0.5.3', 'during-cut@example.ru')).status).toBe(201)
      // A missing variant needs the database's lease: a 503 to come back for, never a 500.
      const image = await call('A', `/media/${variant}`, '10.0.5.1')
      expect([image.status, image.headers.get('retry-after')]).toEqual([503, '10'])
      expect((await call('B', `/media/${variant}`, '10.0.5.1')).status).toBe(200)
    } finally {
      proxy.heal()
    }
    await waitFor(async () => (await stored(`email like 'cut-%'`)) === 2, 'the journaled leads stored')
    const ids = (await direct.query<{ id: number }>(`select id from feedback where email like 'cut-%'`)).rows
    await waitFor(
      () => ids.every(({ id }) => hook.requests.some((r) => r.headers['webhook-id'] === `lead-${id}`)),
      'the journaled leads delivered',
    )
    await waitFor(
      async () => (await direct.query(`select 1 from "leadDelivery" where status <> 'sent'`)).rowCount === 0,
      'every delivery sent',
    )
    for (const { id } of ids) {
      expect(
        hook.requests.filter((r) => r.headers['webhook-id'] === `lead-${id}`),
        `lead ${id}`,
      ).toHaveLength(1)
    }
    expect(await stored(`email like 'cut-%'`)).toBe(2)
  })
})
