// The documents on personal data: the policy, the consent and the cookie text are separate public
// pages whose templates name the operator from OPERATOR_* or the back office's fields; the lead's
// consent record keeps the version (hash) of the consent text as the visitor read it, so saving
// other details gives later leads another version; the back office warns while details are empty.
import { afterEach, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../helpers/build-test-app'

const TOKEN = 'a-test-admin-token-0123'
const auth = { authorization: `Bearer ${TOKEN}` }
let t: TestApp | null = null
afterEach(async () => {
  await t?.close()
  t = null
})

async function consentVersionOfNewLead(app: TestApp['app'], email: string): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/feedback',
    payload: { username: 'Ольга', phone: '+7 916 123-45-67', email, consent: true, sourceUrl: '/' },
  })
  expect(res.statusCode).toBe(201)
  const row = await app.db
    .selectFrom('feedback')
    .select('consentVersion')
    .where('email', '=', email)
    .executeTakeFirstOrThrow()
  return row.consentVersion!
}

describe('the documents', () => {
  it('name the operator from OPERATOR_* on their own pages', async () => {
    t = await buildTestApp({
      ADMIN_TOKEN: TOKEN,
      OPERATOR_NAME: 'ООО «Ромашка»',
      OPERATOR_INN: '7701234567',
      OPERATOR_ADDRESS: 'г. Москва, ул. Лесная, д. 5',
    })
    for (const url of ['/politika', '/soglasie', '/cookies']) {
      const page = await t.app.inject({ method: 'GET', url })
      expect(page.statusCode, url).toBe(200)
      expect(page.body).not.toContain('{{')
      expect(page.body).toContain('ООО «Ромашка»')
    }
    const policy = await t.app.inject({ method: 'GET', url: '/politika' })
    expect(policy.body).toContain('ИНН 7701234567')
    expect(policy.body).toContain('г. Москва, ул. Лесная, д. 5')
    const consent = await t.app.inject({ method: 'GET', url: '/api/lead-consent?path=/' })
    expect(consent.json<{ data: { content: string } }>().data.content).toContain('ООО «Ромашка» (ИНН 7701234567')

    const overview = await t.app.inject({ method: 'GET', url: '/api/admin/privacy', headers: auth })
    const data = overview.json<{
      data: { operator: { missing: string[]; fromEnv: string[] }; documents: { kind: string; version: string }[] }
    }>().data
    expect(data.operator.missing).toEqual([])
    expect(data.operator.fromEnv).toEqual(['name', 'inn', 'address'])
    expect(data.documents.map((doc) => doc.kind)).toEqual(['policy', 'consent', 'cookies'])
    for (const doc of data.documents) expect(doc.version).toMatch(/^sha256:[0-9a-f]{16}$/)
    // A field the environment sets is not changed from the back office.
    const refused = await t.app.inject({
      method: 'PUT',
      url: '/api/admin/privacy/operator',
      headers: auth,
      payload: { name: 'Другое' },
    })
    expect(refused.statusCode).toBe(400)
  })

  it('warn while the operator is unnamed; saved details show at once and change the consent version', async () => {
    t = await buildTestApp({ ADMIN_TOKEN: TOKEN, LEAD_RATE_LIMIT: '0' })
    const before = await t.app.inject({ method: 'GET', url: '/soglasie' })
    expect(before.body).toContain('[не указано]')
    const overview = await t.app.inject({ method: 'GET', url: '/api/admin/privacy', headers: auth })
    expect(overview.json<{ data: { operator: { missing: string[] } } }>().data.operator.missing).toEqual([
      'name',
      'inn',
      'address',
    ])
    const firstVersion = await consentVersionOfNewLead(t.app, 'first@example.ru')

    const bad = await t.app.inject({
      method: 'PUT',
      url: '/api/admin/privacy/operator',
      headers: auth,
      payload: { inn: '123', surprise: 'x' },
    })
    expect(bad.statusCode).toBe(400)
    expect(bad.json<{ errors: Record<string, string> }>().errors).toEqual({
      inn: 'ИНН: 10 или 12 цифр',
      surprise: 'Неизвестное поле',
    })
    const saved = await t.app.inject({
      method: 'PUT',
      url: '/api/admin/privacy/operator',
      headers: auth,
      payload: { name: 'ИП Иванова Анна Петровна', inn: '500100732259', address: 'г. Тула, ул. Советская, д. 1' },
    })
    expect(saved.statusCode).toBe(200)
    const after = await t.app.inject({ method: 'GET', url: '/soglasie' })
    expect(after.body).toContain('ИП Иванова Анна Петровна (ИНН 500100732259')
    expect(after.body).not.toContain('[не указано]')
    const secondVersion = await consentVersionOfNewLead(t.app, 'second@example.ru')
    expect(secondVersion).toMatch(/^sha256:/)
    expect(secondVersion).not.toBe(firstVersion)
    const audit = await t.app.inject({ method: 'GET', url: '/api/admin/privacy/audit', headers: auth })
    expect(audit.json<{ data: { action: string }[] }>().data[0].action).toBe('operator.save')
  })
})
