// The back office's key flows on PostgreSQL: sessions (sign-in, the shared sign-in limit, the
// sliding expiry, sign-out, a new secret), the inbox's search (Cyrillic case, phone digits, LIKE's
// characters), «не спам» delivered by e-mail, «Отправить ещё раз», and the CSV.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AdminLeadPage } from '../../src/admin/admin-leads'
import { leadsMain } from '../../server/tools/leads'
import { readToolConfig } from '../../server/tools/tool-config'
import { collectOutput, listen, tempDir } from '../helpers/build-test-app'
import { createTestSchema, TEST_DATABASE_URL, type TestSchema } from '../helpers/postgres'
import { startSmtpReceiver, waitFor, type SmtpReceiver } from '../helpers/receivers'
import { ADMIN_TOKEN, buildAdminApp, removeDir, signIn, SITE, type AdminApp } from '../admin/admin-helpers'

const HOUR = 60 * 60 * 1000

describe.runIf(TEST_DATABASE_URL)('the back office on PostgreSQL', () => {
  let schema: TestSchema
  let smtp: SmtpReceiver
  let site: AdminApp
  let env: Record<string, string>
  let cookie: string

  beforeAll(async () => {
    schema = await createTestSchema()
    smtp = await startSmtpReceiver()
    env = {
      DATABASE_URL: schema.url,
      LEAD_RATE_LIMIT: '0',
      LEAD_MIN_FILL_SECONDS: '0',
      SMTP_URL: smtp.url,
      LEAD_EMAIL_TO: 'owner@shop.example.ru',
      LEAD_EMAIL_FROM: 'site@shop.example.ru',
    }
    site = await buildAdminApp(env)
    cookie = await signIn(site.app)
  })
  afterAll(async () => {
    await site?.close()
    removeDir(site.dir)
    await smtp?.close()
    await schema?.drop()
  })

  const state = (t: AdminApp, cookieHeader: string) =>
    t.app.inject({ url: '/api/admin/session', headers: { cookie: cookieHeader } })
  const attempt = (secret: string, remoteAddress: string) =>
    site.app.inject({
      method: 'POST',
      url: '/api/admin/session',
      headers: { origin: SITE },
      payload: { secret },
      remoteAddress,
    })

  async function postLead(body: Record<string, unknown>): Promise<number> {
    const response = await site.app.inject({
      method: 'POST',
      url: '/api/feedback',
      payload: { consent: true, ...body },
    })
    expect(response.statusCode, response.body).toBe(201)
    return response.json<{ data: { id: number } }>().data.id
  }

  async function inbox(query: string): Promise<AdminLeadPage> {
    const response = await site.app.inject({ url: `/api/admin/leads?${query}`, headers: { cookie } })
    expect(response.statusCode, response.body).toBe(200)
    return response.json<AdminLeadPage>()
  }

  it('signs in, limits attempts to 5 a minute per address, and slides and ends the session', async () => {
    expect((await attempt('wrong-secret-value', '10.9.0.1')).statusCode).toBe(401)
    for (let i = 0; i < 4; i++) await attempt('wrong-secret-value', '10.9.0.1')
    const limited = await attempt(ADMIN_TOKEN, '10.9.0.1')
    expect(limited.statusCode).toBe(429)
    expect(limited.json().error.message).toBe('Слишком много попыток входа. Попробуйте через минуту.')
    expect((await attempt(ADMIN_TOKEN, '10.9.0.2')).statusCode).toBe(204)

    const session = await signIn(site.app, ADMIN_TOKEN, '10.9.0.3')
    site.clock.advance(11 * HOUR)
    expect((await state(site, session)).statusCode).toBe(200)
    site.clock.advance(11 * HOUR)
    expect((await state(site, session)).statusCode).toBe(200)
    site.clock.advance(12 * HOUR + 1)
    expect((await state(site, session)).statusCode).toBe(401)
    cookie = await signIn(site.app, ADMIN_TOKEN, '10.9.0.4')

    const out = await site.app.inject({
      method: 'DELETE',
      url: '/api/admin/session',
      headers: { cookie, origin: SITE },
    })
    expect(out.statusCode).toBe(204)
    expect((await state(site, cookie)).statusCode).toBe(401)
    cookie = await signIn(site.app, ADMIN_TOKEN, '10.9.0.5')
  })

  it('finds leads by Cyrillic name in any case, phone digits and e-mail, with counts per tab', async () => {
    await postLead({ username: 'Олег Петров', phone: '+7 (999) 123-45-67', email: 'oleg@example.ru' })
    await postLead({ username: 'Мария', phone: '8 912 345 67 89', email: 'maria_s@example.ru' })
    await postLead({ username: 'Бот', phone: '+7 900 555-55-55', email: 'bot@spam.example', website: 'x' })
    const search = async (q: string) => (await inbox(`q=${encodeURIComponent(q)}`)).data.map((lead) => lead.username)
    expect(await search('олег')).toEqual(['Олег Петров'])
    expect(await search('ПЕТРОВ')).toEqual(['Олег Петров'])
    expect(await search('8 999 123 45 67')).toEqual(['Олег Петров'])
    expect(await search('9123456789')).toEqual(['Мария'])
    expect(await search('maria_s')).toEqual(['Мария'])
    expect(await search('%')).toEqual([])
    const all = await inbox('')
    expect(all.data.map((lead) => lead.username)).toEqual(['Мария', 'Олег Петров'])
    expect(all.counts).toEqual({ new: 2, in_progress: 0, closed: 0, spam: 1 })
  })

  it('changes a status, delivers a lead marked not spam, sends one again', async () => {
    await waitFor(() => smtp.mails.length === 2, 'the two real leads')
    const [maria, oleg] = (await inbox('')).data
    const patch = (id: number, payload: Record<string, unknown>) =>
      site.app.inject({ method: 'PATCH', url: `/api/admin/leads/${id}`, headers: { cookie, origin: SITE }, payload })
    expect((await patch(maria.id, { status: 'closed' })).json().data.status).toBe('closed')
    expect((await inbox('tab=closed')).data.map((lead) => lead.id)).toEqual([maria.id])

    const bot = (await inbox('tab=spam')).data[0]
    const unspammed = await patch(bot.id, { spam: false })
    expect(unspammed.json().data.deliveries).toHaveLength(1)
    await waitFor(() => smtp.mails.length === 3, 'the lead that was spam')

    const resent = await site.app.inject({
      method: 'POST',
      url: `/api/admin/leads/${oleg.id}/resend`,
      headers: { cookie, origin: SITE },
    })
    expect(resent.statusCode).toBe(200)
    await waitFor(() => smtp.mails.length === 4, 'the lead sent again')
  })

  it('gives the CSV of the command-line export', async () => {
    const response = await site.app.inject({ url: '/api/admin/leads.csv', headers: { cookie } })
    expect(response.statusCode).toBe(200)
    const url = await listen(site)
    const { out, text } = collectOutput()
    await leadsMain(['export', '--format', 'csv'], readToolConfig({ VITRINA_URL: url, ADMIN_TOKEN }), out)
    expect(response.body).toBe(text())
  })

  it('a new secret on the same database revokes the session', async () => {
    await site.close()
    removeDir(site.dir)
    const dir = tempDir('vitrina-admin-')
    site = await buildAdminApp({ ...env, ADMIN_TOKEN: 'another-admin-token-9876543210' }, dir)
    expect((await state(site, cookie)).statusCode).toBe(401)
    expect((await site.app.inject({ url: '/api/admin/leads', headers: { cookie } })).statusCode).toBe(401)
  })
})
