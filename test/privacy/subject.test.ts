// A person's data on request through the back office's API, on SQLite and PostgreSQL: found by a
// phone in any format, exported, deleted, with the audit log naming what was done and no trace of
// the person left in any table. The browser walk-through is test/e2e/privacy-admin.test.ts.
import { afterEach, describe, expect, it } from 'vitest'
import type { TestApp } from '../helpers/build-test-app'
import { DIALECTS } from '../helpers/dialects'
import { leadSearchText } from '../../server/leads/store/lead-search'
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
      payload: { analytics: true, version: (await app.content.getSite('/'))?.cookieVersion },
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

  it.skipIf(!dialect.available)(
    'finds and erases the person behind 850 older leads that contain the digits',
    async () => {
      t = await dialect.build({ ADMIN_TOKEN: TOKEN, LEAD_RATE_LIMIT: '0' })
      const { app } = t
      // Spam a visitor can send: phones and names that contain the person's digits without being them.
      const decoys = []
      for (let n = 0; n < 850; n++) {
        const username = n % 2 ? `Спам 9267008090${n}` : 'Спам'
        const phone = `+7 926 700 80 90 ${String(n).padStart(3, '0')}`
        const phoneE164 = `+7926700809${String(n).padStart(4, '0')}`
        const email = `spam${n}@example.ru`
        decoys.push({
          username,
          email,
          phone,
          phoneE164,
          createdAt: '2026-01-01T00:00:00.000Z',
          spam: 0,
          status: 'new' as const,
          sourceUrl: '/',
          searchText: leadSearchText({ username, email, phone, phoneE164 }),
        })
      }
      for (let i = 0; i < decoys.length; i += 200)
        await app.db
          .insertInto('feedback')
          .values(decoys.slice(i, i + 200))
          .execute()
      const person = await app.inject({
        method: 'POST',
        url: '/api/feedback',
        payload: { ...PERSON, phone: '+7 926 700-80-90', consent: true },
      })
      expect(person.statusCode).toBe(201)

      const found = await app.inject({ method: 'GET', url: '/api/admin/privacy/subject?q=89267008090', headers: auth })
      expect(found.json<{ data: { leads: { username: string }[] } }>().data.leads.map((lead) => lead.username)).toEqual(
        [PERSON.username],
      )
      const erase = await app.inject({
        method: 'POST',
        url: '/api/admin/privacy/subject/erase',
        headers: auth,
        payload: { q: '9267008090', mode: 'delete' },
      })
      expect(erase.json()).toMatchObject({ data: { leads: 1 } })
      const left = await app.db.selectFrom('feedback').select(['username']).execute()
      expect(left).toHaveLength(850)
      expect(left.some((lead) => lead.username === PERSON.username)).toBe(false)
    },
  )
})
