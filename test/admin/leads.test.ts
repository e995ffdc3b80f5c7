// The lead inbox through its API with a signed-in session: tabs, search, pages, newest first,
// counts, each lead's source, consent and deliveries; status changes, «не спам» (then delivered to
// a real SMTP receiver), «Отправить ещё раз», the latest id for polling, and the CSV download,
// byte for byte the file of `npm run leads -- export`.
import { simpleParser } from 'mailparser'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { AdminLead, AdminLeadPage } from '../../src/admin/admin-leads'
import { leadsMain } from '../../server/tools/leads'
import { readToolConfig } from '../../server/tools/tool-config'
import { collectOutput, listen } from '../helpers/build-test-app'
import { startSmtpReceiver, waitFor, type SmtpReceiver } from '../helpers/receivers'
import { ADMIN_TOKEN, buildAdminApp, removeDir, signIn, SITE, type AdminApp } from './admin-helpers'

let smtp: SmtpReceiver
let site: AdminApp
let cookie: string
const ids: Record<'oleg' | 'maria' | 'ivan' | 'bot', number> = { oleg: 0, maria: 0, ivan: 0, bot: 0 }

async function postLead(body: Record<string, unknown>): Promise<number> {
  const response = await site.app.inject({
    method: 'POST',
    url: '/api/feedback',
    headers: { 'user-agent': 'Mozilla/5.0 (iPhone) test' },
    payload: { consent: true, ...body },
  })
  expect(response.statusCode, response.body).toBe(201)
  return response.json<{ data: { id: number } }>().data.id
}

beforeAll(async () => {
  smtp = await startSmtpReceiver()
  site = await buildAdminApp({
    LEAD_RATE_LIMIT: '0',
    LEAD_MIN_FILL_SECONDS: '0',
    SMTP_URL: smtp.url,
    LEAD_EMAIL_TO: 'owner@shop.example.ru',
    LEAD_EMAIL_FROM: 'Витрина <site@shop.example.ru>',
  })
  cookie = await signIn(site.app)
})

// Every test starts from the same four leads, whatever the tests before it changed.
beforeEach(async () => {
  await site.app.db.deleteFrom('leadDelivery').execute()
  await site.app.db.deleteFrom('feedback').execute()
  const sent = smtp.mails.length
  ids.oleg = await postLead({
    username: 'Олег Петров',
    phone: '+7 (999) 123-45-67',
    email: 'oleg@example.ru',
    sourceUrl: '/structure/product?color=red',
    utm: { utm_source: 'yandex', utm_campaign: 'spring' },
  })
  ids.maria = await postLead({ username: 'Мария', phone: '8 912 345 67 89', email: 'Maria.S@Example.RU' })
  ids.ivan = await postLead({ username: 'Иван', phone: '+7 900 000-00-01', email: 'ivan_100%@example.ru' })
  // The honeypot filled: kept as spam, never delivered.
  ids.bot = await postLead({ username: 'Бот', phone: '+7 900 555-55-55', email: 'bot@spam.example', website: 'x' })
  await waitFor(() => smtp.mails.length === sent + 3, 'the three real leads by e-mail')
})

afterAll(async () => {
  await site?.close()
  removeDir(site.dir)
  await smtp?.close()
})

async function inbox(query: string): Promise<AdminLeadPage> {
  const response = await site.app.inject({ url: `/api/admin/leads?${query}`, headers: { cookie } })
  expect(response.statusCode, response.body).toBe(200)
  expect(response.headers['cache-control']).toBe('no-store')
  return response.json<AdminLeadPage>()
}

async function change(id: number, payload: unknown) {
  return site.app.inject({
    method: 'PATCH',
    url: `/api/admin/leads/${id}`,
    headers: { cookie, origin: SITE },
    payload: payload as Record<string, unknown>,
  })
}

async function lead(id: number): Promise<AdminLead> {
  const page = await inbox('tab=spam&pageSize=100')
  const all = [...page.data, ...(await inbox('tab=new&pageSize=100')).data]
  all.push(...(await inbox('tab=in_progress&pageSize=100')).data, ...(await inbox('tab=closed&pageSize=100')).data)
  return all.find((item) => item.id === id)!
}

const namesOf = (page: AdminLeadPage) => page.data.map((item) => item.username)

describe('the inbox', () => {
  it('lists new leads newest first with the counts of every tab; spam only under «Спам»', async () => {
    const page = await inbox('')
    expect(namesOf(page)).toEqual(['Иван', 'Мария', 'Олег Петров'])
    expect(page).toMatchObject({ total: 3, page: 1, pageSize: 20 })
    expect(page.counts).toEqual({ new: 3, in_progress: 0, closed: 0, spam: 1 })
    const spam = await inbox('tab=spam')
    expect(namesOf(spam)).toEqual(['Бот'])
    expect(spam.data[0].spam).toBe(true)
    expect(spam.data[0].deliveries).toEqual([])
  })

  it('shows where a lead came from, its consent record and its delivery', async () => {
    const oleg = (await inbox('q=oleg@')).data[0]
    expect(oleg.source).toMatchObject({
      url: '/structure/product?color=red',
      productTitle: 'Дрель-шуруповёрт аккумуляторная 18 В',
      utm: { utm_source: 'yandex', utm_campaign: 'spring' },
    })
    expect(oleg.source.productId).toEqual(expect.any(Number))
    expect(oleg.consent).toMatchObject({ at: oleg.createdAt, ip: '127.0.0.1', userAgent: 'Mozilla/5.0 (iPhone) test' })
    expect(oleg.consent.version).toEqual(expect.any(String))
    expect(oleg.deliveries).toHaveLength(1)
    expect(oleg.deliveries[0]).toMatchObject({ channel: 'email', status: 'sent', attempts: 1, lastError: null })
    expect(oleg.deliveries[0].sentAt).toEqual(expect.any(String))
  })

  it('pages through a tab', async () => {
    const first = await inbox('tab=new&pageSize=2&page=1')
    const second = await inbox('tab=new&pageSize=2&page=2')
    expect(namesOf(first)).toEqual(['Иван', 'Мария'])
    expect(namesOf(second)).toEqual(['Олег Петров'])
    expect(second.total).toBe(3)
    expect((await inbox('tab=new&pageSize=2&page=3')).data).toEqual([])
  })

  it('finds a lead by any case of its name, by its phone digits in any notation, by e-mail', async () => {
    const search = async (q: string, tab = 'new') => namesOf(await inbox(`tab=${tab}&q=${encodeURIComponent(q)}`))
    expect(await search('олег')).toEqual(['Олег Петров'])
    expect(await search('ПЕТРОВ')).toEqual(['Олег Петров'])
    expect(await search('9991234567')).toEqual(['Олег Петров'])
    expect(await search('8 999 123-45-67')).toEqual(['Олег Петров'])
    expect(await search('+79123456789')).toEqual(['Мария'])
    expect(await search('maria.s@example')).toEqual(['Мария'])
    // By its number, as the Telegram message and the cards name it
    const oleg = (await inbox(`q=${encodeURIComponent('олег')}`)).data[0]
    expect(await search(`№ ${oleg.id}`)).toEqual(['Олег Петров'])
    expect(await search(`#${oleg.id}`)).toEqual(['Олег Петров'])
    expect(await search('№ 999999')).toEqual([])
    expect(await search('100%')).toEqual(['Иван'])
    // LIKE's own characters are plain text in a search.
    expect(await search('%')).toEqual(['Иван'])
    expect(await search('__')).toEqual([])
    expect(await search('бот', 'spam')).toEqual(['Бот'])
    const counted = await inbox('q=example.ru')
    expect(counted.counts).toEqual({ new: 3, in_progress: 0, closed: 0, spam: 0 })
  })

  it('refuses a bad tab or page in Russian', async () => {
    for (const query of ['tab=all', 'page=0', 'pageSize=1000', 'page=abc']) {
      const response = await site.app.inject({ url: `/api/admin/leads?${query}`, headers: { cookie } })
      expect(response.statusCode, query).toBe(400)
      expect(response.json().error.message).toMatch(/[а-я]/)
    }
  })

  it('tells the newest lead id for polling, and a new lead shows up there', async () => {
    const latest = async () =>
      (await site.app.inject({ url: '/api/admin/leads/latest', headers: { cookie } })).json().data.id
    expect(await latest()).toBe(ids.bot)
    const sent = smtp.mails.length
    const id = await postLead({ username: 'Пётр', phone: '+7 900 111-22-33', email: 'petr@example.ru' })
    expect(await latest()).toBe(id)
    expect(namesOf(await inbox(''))[0]).toBe('Пётр')
    await waitFor(() => smtp.mails.length === sent + 1, 'the e-mail of the new lead') // nothing left in flight
  })
})

describe('changing a lead', () => {
  it('moves a lead between tabs by its status', async () => {
    const response = await change(ids.maria, { status: 'in_progress' })
    expect(response.statusCode).toBe(200)
    expect(response.json<{ data: AdminLead }>().data).toMatchObject({ id: ids.maria, status: 'in_progress' })
    const page = await inbox('tab=in_progress')
    expect(namesOf(page)).toEqual(['Мария'])
    expect(page.counts).toMatchObject({ new: 2, in_progress: 1, closed: 0 })
  })

  it('refuses a bad change in Russian and changes nothing', async () => {
    await change(ids.maria, { status: 'in_progress' })
    const bad: unknown[] = [{ status: 'done' }, { spam: true }, { username: 'x' }, {}, [1]]
    for (const payload of bad) {
      const response = await change(ids.maria, payload)
      expect(response.statusCode, JSON.stringify(payload)).toBe(400)
      expect(response.json().error.message).toMatch(/[а-я]/)
    }
    expect((await change(ids.maria, { status: 'done' })).json().errors.status).toMatch(/[а-я]/)
    expect((await lead(ids.maria)).status).toBe('in_progress')
    expect((await change(999999, { status: 'closed' })).statusCode).toBe(404)
  })

  it('marks a spam lead as not spam: it is queued and delivered by e-mail', async () => {
    const before = smtp.mails.length
    const response = await change(ids.bot, { spam: false })
    expect(response.statusCode).toBe(200)
    const updated = response.json<{ data: AdminLead }>().data
    expect(updated.spam).toBe(false)
    expect(updated.deliveries.map((d) => d.channel)).toEqual(['email'])
    await waitFor(() => smtp.mails.length === before + 1, 'the e-mail of the lead that was spam')
    const mail = await simpleParser(smtp.mails[before].raw)
    expect(mail.replyTo?.text).toBe('bot@spam.example')
    expect((await inbox('tab=spam')).total).toBe(0)
    expect(namesOf(await inbox('tab=new'))).toContain('Бот')
    // Marking it again queues nothing more.
    expect((await change(ids.bot, { spam: false })).json().data.deliveries).toHaveLength(1)
  })

  it('sends a lead again: its sent delivery is queued and the e-mail arrives once more', async () => {
    const before = smtp.mails.length
    const response = await site.app.inject({
      method: 'POST',
      url: `/api/admin/leads/${ids.oleg}/resend`,
      headers: { cookie, origin: SITE },
    })
    expect(response.statusCode).toBe(200)
    await waitFor(() => smtp.mails.length === before + 1, 'the e-mail sent again')
    const mail = await simpleParser(smtp.mails[before].raw)
    expect(mail.replyTo?.text).toBe('oleg@example.ru')
    await waitFor(async () => (await lead(ids.oleg)).deliveries[0].status === 'sent', 'the delivery marked sent')
    expect((await lead(ids.oleg)).deliveries[0].attempts).toBe(2)
  })

  it('does not send a spam lead, nor an unknown one', async () => {
    const spamId = await postLead({
      username: 'Спамер',
      phone: '+7 900 999-99-99',
      email: 's@spam.example',
      website: 'y',
    })
    const resend = (id: number) =>
      site.app.inject({ method: 'POST', url: `/api/admin/leads/${id}/resend`, headers: { cookie, origin: SITE } })
    const refused = await resend(spamId)
    expect(refused.statusCode).toBe(409)
    expect(refused.json().error.message).toBe('Заявка помечена как спам')
    expect((await resend(999999)).statusCode).toBe(404)
    expect((await resend(0)).statusCode).toBe(404)
  })
})

describe('«Скачать CSV»', () => {
  it('is byte for byte the file of npm run leads -- export, as an attachment named by the date', async () => {
    const response = await site.app.inject({ url: '/api/admin/leads.csv', headers: { cookie } })
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8')
    expect(response.headers['content-disposition']).toBe('attachment; filename="leads-20260302.csv"')
    const url = await listen(site)
    const { out, text } = collectOutput()
    await leadsMain(['export', '--format', 'csv'], readToolConfig({ VITRINA_URL: url, ADMIN_TOKEN }), out)
    expect(response.rawPayload.equals(Buffer.from(text()))).toBe(true)
    expect(response.body).toContain('Олег Петров')
    expect(response.body).not.toContain('Спамер')
  })
})
