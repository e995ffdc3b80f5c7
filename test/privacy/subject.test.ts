// A person's data on request through the back office's API, on SQLite and PostgreSQL: found by a
// phone in any format, exported, deleted, with the audit log naming what was done and no trace of
// the person left in any table. The browser walk-through is test/e2e/privacy-admin.test.ts.
import { afterEach, describe, expect, it } from 'vitest'
import type { TestApp } from '../helpers/build-test-app'
import { DIALECTS } from '../helpers/dialects'
import { everyTableAsText } from './every-table'

const TOKEN = 'a-test-admin-token-0123'
const auth = { authorization: `Bearer ${TOKEN}` }
const PERSON = { username: 'Зинаида Подлесная', email: 'Zina.Podlesnaya@example.ru' }
const IP = '198.51.100.23'
const UA = 'Mozilla/5.0 (Zina phone)'

describe.each(DIALECTS)('a person’s data on $name', (dialect) => {
  let t: TestApp | null = null
  afterEach(async () => {
    await t?.close()
    t = null
  })

  it.skipIf(!dialect.available)('finds by phone in any format, exports, deletes everything', async () => {
    t = await dialect.build({ ADMIN_TOKEN: TOKEN, LEAD_RATE_LIMIT: '0', TRUST_PROXY: '127.0.0.1' })
    const { app } = t
    const send = (phone: string, email = PERSON.email) =>
      app.inject({
        method: 'POST',
        url: '/api/feedback',
        remoteAddress: '127.0.0.1',
        headers: { 'x-forwarded-for': IP, 'user-agent': UA },
        payload: { ...PERSON, email, phone, consent: true, sourceUrl: '/' },
      })
    expect((await send('+7 (926) 700-80-90')).statusCode).toBe(201)
    expect((await send('89267008090', 'other@example.ru')).statusCode).toBe(201)
    const someoneElse = await app.inject({
      method: 'POST',
      url: '/api/feedback',
      payload: { username: 'Другой', phone: '+7 926 111-11-11', email: 'x@example.ru', consent: true },
    })
    expect(someoneElse.statusCode).toBe(201)
    const choice = await app.inject({
      method: 'POST',
      url: '/api/cookie-choice',
      remoteAddress: '127.0.0.1',
      headers: { 'x-forwarded-for': IP, 'user-agent': UA },
      payload: { analytics: true, version: 'sha256:0011223344556677' },
    })
    expect(choice.statusCode).toBe(204)

    for (const q of ['8 926 700 80 90', '+79267008090', '(926) 700-80-90', '9267008090']) {
      const found = await app.inject({
        method: 'GET',
        url: `/api/admin/privacy/subject?q=${encodeURIComponent(q)}`,
        headers: auth,
      })
      expect(found.statusCode).toBe(200)
      const data = found.json<{ data: { leads: { username: string }[]; cookieChoices: unknown[] } }>().data
      expect(data.leads.map((lead) => lead.username)).toEqual([PERSON.username, PERSON.username])
      expect(data.cookieChoices).toHaveLength(1)
    }
    const byEmail = await app.inject({
      method: 'GET',
      url: '/api/admin/privacy/subject?q=zina.podlesnaya%40EXAMPLE.ru',
      headers: auth,
    })
    expect(byEmail.json<{ data: { leads: unknown[] } }>().data.leads).toHaveLength(1)

    const file = await app.inject({
      method: 'GET',
      url: '/api/admin/privacy/subject.json?q=8-926-700-80-90',
      headers: auth,
    })
    expect(file.statusCode).toBe(200)
    expect(file.headers['content-disposition']).toMatch(/^attachment; filename="personal-data-\d{8}\.json"$/)
    expect(file.body).toContain(PERSON.username)
    expect(file.body).toContain(IP)

    const erase = await app.inject({
      method: 'POST',
      url: '/api/admin/privacy/subject/erase',
      headers: auth,
      payload: { q: '+7 926 700 80 90', mode: 'delete' },
    })
    expect(erase.statusCode).toBe(200)
    expect(erase.json()).toMatchObject({ data: { leads: 2, cookieChoices: 1 } })

    const tables = await everyTableAsText(app.db)
    for (const [table, text] of tables) {
      for (const trace of ['Зинаида', 'Подлесная', 'podlesnaya', '700-80-90', '7008090', IP, 'Zina phone']) {
        expect(text.toLowerCase(), `${table} still holds ${trace}`).not.toContain(trace.toLowerCase())
      }
    }
    expect(tables.get('feedback')).toContain('Другой')

    const log = await app.inject({ method: 'GET', url: '/api/admin/privacy/audit', headers: auth })
    const actions = log.json<{ data: { action: string; actor: string }[] }>().data.map((entry) => entry.action)
    expect(actions).toEqual(expect.arrayContaining(['subject.search', 'subject.export', 'subject.delete']))
  })

  it.skipIf(!dialect.available)('answers a bad search with a Russian 400 and nobody without the owner', async () => {
    t = await dialect.build({ ADMIN_TOKEN: TOKEN })
    const bad = await t.app.inject({ method: 'GET', url: '/api/admin/privacy/subject?q=12', headers: auth })
    expect(bad.statusCode).toBe(400)
    expect(bad.json<{ error: { message: string } }>().error.message).toMatch(/телефон/)
    const erase = await t.app.inject({
      method: 'POST',
      url: '/api/admin/privacy/subject/erase',
      headers: auth,
      payload: { q: '+79267008090', mode: 'everything' },
    })
    expect(erase.statusCode).toBe(400)
    const stranger = await t.app.inject({ method: 'GET', url: '/api/admin/privacy/subject?q=89267008090' })
    expect(stranger.statusCode).toBe(401)
  })
})
