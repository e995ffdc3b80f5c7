// Leads are personal data: no path, spelling or relation reads them without the admin token,
// and with it only id, username, email, phone and createdAt come out, never from a shared cache.
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { stringifyQuery } from '../../src/api/query-string'
import { now } from '../../server/data/db'
import { buildTestApp, type TestApp } from '../helpers/build-test-app'
import { ADMIN_TOKEN, AUTH } from './helpers'
import { multipartBody } from '../helpers/multipart'

let t: TestApp
const SECRET_NAME = 'Секретный Иван'
const SECRET_EMAIL = 'ivan.secret@example.ru'
const SECRET_PHONE = '+7 (900) 111-22-33'

beforeAll(async () => {
  t = await buildTestApp({ ADMIN_TOKEN })
  // The lead intake's own columns (consentIp, phoneE164) must stay inside too.
  await t.app.db
    .insertInto('feedback')
    .values({
      username: SECRET_NAME,
      email: SECRET_EMAIL,
      phone: SECRET_PHONE,
      createdAt: now(),
      consentIp: '203.0.113.9',
      phoneE164: '+79001112233',
    })
    .execute()
})
afterAll(async () => {
  await t?.close()
})

function leaks(body: string): boolean {
  return (
    body.includes(SECRET_EMAIL) || body.includes(SECRET_NAME) || body.includes('900') || body.includes('203.0.113.9')
  )
}

const get = (url: string, headers: Record<string, string> = {}, remoteAddress = '127.0.0.1') =>
  t.app.inject({ method: 'GET', url, headers, remoteAddress })
/** Wrong tokens come from addresses of their own: five from one address lock it out (429). */
let guesser = 0
const guessing = () => `198.51.100.${++guesser}`

describe('reading leads without the admin token', () => {
  for (const prefix of ['/api/', '/api/many/', '/api/provider/']) {
    it(`refuses ${prefix}feedback with 401 and no rows, and 403 with a wrong token`, async () => {
      const missing = await get(`${prefix}feedback`)
      expect(missing.statusCode).toBe(401)
      expect(missing.json().error.message).toMatch(/авторизац/)
      expect(leaks(missing.body)).toBe(false)
      const wrong = await get(`${prefix}feedback`, { authorization: 'Bearer not-the-token-at-all-123' }, guessing())
      expect(wrong.statusCode).toBe(403)
      expect(leaks(wrong.body)).toBe(false)
      const malformed = await get(`${prefix}feedback`, { authorization: `Basic ${ADMIN_TOKEN}` }, guessing())
      expect(malformed.statusCode).toBe(403)
      const withTtl = await get(`${prefix}feedback?ttl=120`)
      expect(withTtl.statusCode).toBe(401)
    })
  }

  const spellings = [
    'Feedback',
    'FEEDBACK',
    'feedBack',
    '%66eedback',
    '%46eedback',
    'feedback%00',
    'feedback%20',
    '%20feedback',
    'feedback;',
    'feedback%3B',
    'feedback.json',
    'feedbacks',
    '..%2Ffeedback',
    '.%2Ffeedback',
    'feedback%2F',
    'lead',
    'leads',
    'Lead',
    'sqlite_master',
    'sqlite_schema',
    'pg_catalog.pg_tables',
    'information_schema.tables',
    '__proto__',
    'constructor',
    'hasOwnProperty',
    'toString',
    'feedback%E2%80%8B',
    'ﬀeedback',
    'feedback\t',
  ]
  for (const name of spellings) {
    it(`reads no lead through the model name "${name}"`, async () => {
      for (const prefix of ['/api/', '/api/many/', '/api/provider/']) {
        const res = await get(`${prefix}${name}`)
        expect(res.statusCode, `${prefix}${name}`).toBeGreaterThanOrEqual(400)
        expect(leaks(res.body), `${prefix}${name}`).toBe(false)
      }
    })
  }

  it('reads no lead through a path with dot segments', async () => {
    for (const url of [
      '/api/many/../feedback',
      '/api/many/x/../../feedback',
      '/api/many/structure/../feedback',
      '/api//feedback',
    ]) {
      const res = await get(url)
      expect(res.statusCode, url).toBeGreaterThanOrEqual(400)
      expect(leaks(res.body), url).toBe(false)
    }
  })

  it('reads no lead through a relation, a filter or an order of another model', async () => {
    for (const model of ['structure', 'index', 'product', 'sliderItems', 'advantages', 'orderType']) {
      for (const query of [
        { select: { feedback: true } },
        { select: { feedback: { select: { email: true } } } },
        { where: { feedback: { some: {} } } },
        { orderBy: { feedback: 'asc' } },
      ]) {
        const res = await get(`/api/many/${model}?${stringifyQuery({ query })}`)
        expect(res.statusCode, `${model} ${JSON.stringify(query)}`).toBe(400)
        expect(leaks(res.body)).toBe(false)
      }
    }
  })
})

describe('reading leads with the admin token', () => {
  it('answers only id, username, email, phone and createdAt, never cached', async () => {
    for (const url of ['/api/many/feedback', '/api/many/feedback?ttl=120']) {
      const res = await get(url, AUTH)
      expect(res.statusCode).toBe(200)
      expect(res.headers['cache-control']).toBe('no-store, private')
      expect(res.headers['x-cache']).toBeUndefined()
      const rows = res.json().data
      expect(rows).toHaveLength(1)
      expect(Object.keys(rows[0]).sort()).toEqual(['createdAt', 'email', 'id', 'phone', 'username'])
      expect(rows[0].email).toBe(SECRET_EMAIL)
    }
    const one = await get('/api/feedback', AUTH)
    expect(one.statusCode).toBe(200)
    expect(one.json().data.username).toBe(SECRET_NAME)
  })

  it('leaves leads flagged as spam out of every read', async () => {
    await sql`insert into feedback (username, email, phone, "createdAt", spam) values ('Бот Спамов', 'bot@spam.example', '0', ${now()}, 1)`.execute(
      t.app.db,
    )
    const res = await get('/api/many/feedback', AUTH)
    expect(res.json().data.map((r: { username: string }) => r.username)).toEqual([SECRET_NAME])
    expect(res.body).not.toContain('bot@spam.example')
    await sql`delete from feedback where spam = 1`.execute(t.app.db)
  })

  it("refuses to select or filter the lead's private columns", async () => {
    for (const column of ['phoneE164', 'consentIp', 'consentUserAgent', 'idempotencyKey', 'spam', 'consentAt']) {
      for (const query of [
        { select: { [column]: true } },
        { where: { [column]: 'x' } },
        { orderBy: { [column]: 'asc' } },
      ]) {
        const res = await get(`/api/many/feedback?${stringifyQuery({ query })}`, AUTH)
        expect(res.statusCode, column).toBe(400)
        expect(res.json().error.message).toMatch(new RegExp(`Неизвестное поле "${column}" в модели feedback`))
        expect(leaks(res.body)).toBe(false)
      }
    }
  })

  it('never writes leads through the generic write routes', async () => {
    const body = multipartBody({ data: JSON.stringify({ id: 1, username: 'Подмена' }) })
    const patch = await t.app.inject({
      method: 'PATCH',
      url: '/api/feedback',
      payload: body.payload,
      headers: { ...body.headers, ...AUTH },
    })
    expect(patch.statusCode).toBe(404)
    const row = await t.app.db.selectFrom('feedback').select('username').executeTakeFirstOrThrow()
    expect(row.username).toBe(SECRET_NAME)
  })
})
