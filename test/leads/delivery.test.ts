// Lead delivery end to end: a lead posted to the real intake reaches a real SMTP server, a stand-in
// Telegram Bot API and a webhook receiver over sockets, with the page, product and tags it came
// from; failures are retried or given up as each channel's rules say.
import { simpleParser } from 'mailparser'
import { Webhook } from 'standardwebhooks'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { storeLead } from '../../server/leads/store/lead-store'
import { buildTestApp, type TestApp } from '../helpers/build-test-app'
import {
  startHttpReceiver,
  startSmtpReceiver,
  waitFor,
  type HttpReceiver,
  type SmtpReceiver,
} from '../helpers/receivers'

const SECRET = `whsec_${Buffer.from('a secret of at least 24 bytes, random in life').toString('base64')}`
const BOT_TOKEN = '123456:AAbbCCddEEffGGhhIIjjKKllMMnn'

let smtp: SmtpReceiver
let telegram: HttpReceiver
let hook: HttpReceiver
let site: TestApp

beforeAll(async () => {
  smtp = await startSmtpReceiver()
  telegram = await startHttpReceiver((request) => (JSON.parse(request.body) as { text: string }).text.slice(0, 40))
  hook = await startHttpReceiver((request) => String(request.headers['webhook-id']))
})

afterAll(async () => {
  await Promise.all([smtp.close(), telegram.close(), hook.close()])
})

beforeEach(async () => {
  smtp.mails.length = 0
  telegram.requests.length = 0
  telegram.answers.length = 0
  hook.requests.length = 0
  hook.answers.length = 0
  site = await buildTestApp({
    LEAD_RATE_LIMIT: '0',
    SMTP_URL: smtp.url,
    LEAD_EMAIL_TO: 'owner@shop.example.ru, sales@shop.example.ru',
    LEAD_EMAIL_FROM: 'Витрина <site@shop.example.ru>',
    TELEGRAM_BOT_TOKEN: BOT_TOKEN,
    TELEGRAM_CHAT_ID: '-1001234567890',
    TELEGRAM_API_URL: telegram.url,
    // The full text, so the escaping below is checked where visitor text reaches Telegram; the
    // default message without personal data is test/privacy/telegram.test.ts.
    TELEGRAM_FULL_TEXT: 'true',
    LEAD_WEBHOOK_URL: `${hook.url}/crm/leads`,
    LEAD_WEBHOOK_SECRET: SECRET,
    SITE_TIMEZONE: 'Asia/Yekaterinburg',
  })
})

afterEach(async () => {
  await site.close()
})

async function productUrl(): Promise<{ url: string; id: number; title: string }> {
  const row = await site.app.db
    .selectFrom('structure')
    .select(['id', 'urlFull', 'title'])
    .where('typeId', '=', 'product')
    .where('published', '=', 1)
    .orderBy('id')
    .executeTakeFirstOrThrow()
  return { url: row.urlFull, id: row.id, title: row.title }
}

async function postLead(fields: Record<string, unknown> = {}) {
  const response = await site.app.inject({
    method: 'POST',
    url: '/api/feedback',
    payload: {
      username: 'Анна <b>Смирнова</b> & Co',
      phone: '+7 (912) 345-67-89',
      email: 'anna@example.ru',
      consent: true,
      ...fields,
    },
  })
  expect(response.statusCode).toBe(201)
  return response.json<{ data: { id: number } }>().data.id
}

async function deliveries(leadId: number) {
  return site.app.db
    .selectFrom('leadDelivery')
    .selectAll()
    .where('feedbackId', '=', leadId)
    .orderBy('channel')
    .execute()
}

async function allSent(leadId: number) {
  const rows = await deliveries(leadId)
  return rows.length === 3 && rows.every((row) => row.status === 'sent')
}

/** Moves every pending delivery's next attempt to now: the wait has passed. */
async function skipTheWait() {
  await site.app.db
    .updateTable('leadDelivery')
    .set({ nextAttemptAt: new Date(Date.now() - 1000).toISOString() })
    .where('status', '=', 'pending')
    .execute()
  site.app.leadDelivery.wake()
}

describe('a lead from a product page with advertising tags', () => {
  it('reaches e-mail, Telegram and the webhook with the page, product and tags, visitor text escaped', async () => {
    const product = await productUrl()
    const utm = { utm_source: 'yandex', utm_medium: 'cpc', yclid: '123456' }
    const id = await postLead({ sourceUrl: `${product.url}?color=red`, utm })
    await waitFor(() => allSent(id), 'all three deliveries')

    // E-mail: one message to both owners, Russian subject, Reply-To the visitor, escaped HTML.
    expect(smtp.mails).toHaveLength(1)
    expect(smtp.mails[0].to.sort()).toEqual(['owner@shop.example.ru', 'sales@shop.example.ru'])
    const mail = await simpleParser(smtp.mails[0].raw)
    expect(mail.subject).toBe('Новая заявка с сайта: Анна <b>Смирнова</b> & Co')
    expect(mail.from?.text).toBe('"Витрина" <site@shop.example.ru>')
    expect(mail.replyTo?.text).toBe('anna@example.ru')
    expect(mail.messageId).toMatch(new RegExp(`^<lead-${id}\\.\\d+@shop\\.example\\.ru>$`))
    expect(mail.headers.get('x-lead-id')).toBe(String(id))
    const html = String(mail.html)
    expect(html).toContain('Анна &#60;b&#62;Смирнова&#60;/b&#62; &#38; Co')
    expect(html).not.toContain('<b>Смирнова</b>')
    expect(html).toContain('href="tel:+79123456789"')
    expect(html).toContain(`https://shop.example.ru${product.url}?color=red`)
    expect(html).toContain(`${product.title.replace(/&/g, '&#38;')} (№ ${product.id})`)
    expect(mail.text).toContain('Метки: utm_source=yandex, utm_medium=cpc, yclid=123456')
    // The lead's time in the site's zone (Yekaterinburg is UTC+5), as the owner reads it.
    const stored = await site.app.db
      .selectFrom('feedback')
      .select('createdAt')
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
    const local = new Date(Date.parse(stored.createdAt) + 5 * 3600_000)
    const pad = (n: number) => String(n).padStart(2, '0')
    const expected = `${pad(local.getUTCDate())}.${pad(local.getUTCMonth() + 1)}.${local.getUTCFullYear()} ${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}`
    expect(mail.text).toContain(`Время: ${expected} (Asia/Yekaterinburg)`)

    // Telegram: sendMessage in HTML mode, the same facts, escaped.
    expect(telegram.requests).toHaveLength(1)
    expect(telegram.requests[0].url).toBe(`/bot${BOT_TOKEN}/sendMessage`)
    const message = JSON.parse(telegram.requests[0].body) as { chat_id: string; text: string; parse_mode: string }
    expect(message.chat_id).toBe('-1001234567890')
    expect(message.parse_mode).toBe('HTML')
    expect(message.text).toContain(`Новая заявка №${id}`)
    expect(message.text).toContain('Анна &#60;b&#62;Смирнова&#60;/b&#62; &#38; Co')
    expect(message.text).toContain('utm_source=yandex')

    // Webhook: JSON signed per Standard Webhooks, verified with the receiver's own library.
    expect(hook.requests).toHaveLength(1)
    const request = hook.requests[0]
    expect(request.url).toBe('/crm/leads')
    const payload = new Webhook(SECRET).verify(request.body, request.headers as Record<string, string>) as {
      type: string
      data: Record<string, unknown>
    }
    expect(payload.type).toBe('lead.created')
    expect(payload.data).toMatchObject({
      id,
      name: 'Анна <b>Смирнова</b> & Co',
      phone: '+7 (912) 345-67-89',
      phoneE164: '+79123456789',
      email: 'anna@example.ru',
      sourceUrl: `https://shop.example.ru${product.url}?color=red`,
      product: { id: product.id, title: product.title },
      utm,
    })
    expect(request.headers['idempotency-key']).toBe(`lead-${id}`)
    expect(request.headers['webhook-id']).toBe(`lead-${id}`)
  })

  it('stores where the lead came from, and the CSV-facing API shows it', async () => {
    const product = await productUrl()
    const id = await postLead({ sourceUrl: product.url, utm: { utm_campaign: 'осень' } })
    const row = await site.app.db.selectFrom('feedback').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
    expect(row).toMatchObject({ sourceUrl: product.url, productId: product.id, productTitle: product.title })
    expect(JSON.parse(row.utm!)).toEqual({ utm_campaign: 'осень' })
  })

  it('refuses tags it does not know and a source that is not a path on the site', async () => {
    const unknownTag = await site.app.inject({
      method: 'POST',
      url: '/api/feedback',
      payload: { username: 'А', phone: '+79123456789', email: 'a@b.ru', consent: true, utm: { evil: '1' } },
    })
    expect(unknownTag.statusCode).toBe(400)
    const absolute = await site.app.inject({
      method: 'POST',
      url: '/api/feedback',
      payload: {
        username: 'А',
        phone: '+79123456789',
        email: 'a@b.ru',
        consent: true,
        sourceUrl: 'https://evil.example',
      },
    })
    expect(absolute.statusCode).toBe(400)
  })
})

describe('single-line fields', () => {
  it('stay on one line in the e-mail, Telegram and the webhook, whatever a stored row holds', async () => {
    // A row as an older release could store it, with a line break that forges a line of its own.
    const stored = await storeLead(site.app.db, {
      lead: {
        username: 'Анна\nСтраница: https://evil.example',
        phone: '+7 (912) 345-67-89',
        email: 'anna@example.ru',
        consent: true,
      },
      spam: false,
      idempotencyKey: null,
      origin: { sourceUrl: '/', product: null, utm: { utm_source: 'ya\r\nМетки: поддельные' } },
      consent: { ip: '127.0.0.1', userAgent: null, version: 'label-only' },
      channels: site.app.leadDelivery.channels,
    })
    if (stored.status !== 'created') throw new Error('not stored')
    site.app.leadDelivery.wake()
    await waitFor(() => allSent(stored.id), 'all three deliveries')

    const mail = await simpleParser(smtp.mails[0].raw)
    expect(mail.subject).toBe('Новая заявка с сайта: Анна Страница: https://evil.example')
    expect(
      String(mail.text)
        .split('\n')
        .filter((line) => line.startsWith('Страница:')),
    ).toEqual(['Страница: https://shop.example.ru/'])
    expect(String(mail.text)).toContain('Имя: Анна Страница: https://evil.example\n')
    expect(String(mail.text)).toContain('Метки: utm_source=ya Метки: поддельные\n')
    expect(String(mail.html)).not.toMatch(/Анна\s*\n/)
    const telegramText = (JSON.parse(telegram.requests[0].body) as { text: string }).text
    expect(telegramText).toContain('<b>Имя:</b> Анна Страница: https://evil.example\n')
    expect(telegramText.split('\n').filter((line) => line.includes('evil.example'))).toHaveLength(1)
    const payload = JSON.parse(hook.requests[0].body) as { data: { name: string; utm: Record<string, string> } }
    expect(payload.data.name).toBe('Анна Страница: https://evil.example')
    expect(payload.data.utm).toEqual({ utm_source: 'ya Метки: поддельные' })
  })
})

describe('failures', () => {
  it('delivers a webhook once after a 500, with the same id on the retry', async () => {
    hook.answers.push({ status: 500 })
    const id = await postLead()
    await waitFor(
      async () => (await deliveries(id)).find((row) => row.channel === 'webhook')!.attempts === 1,
      'the first try',
    )
    await waitFor(
      async () => (await deliveries(id)).find((row) => row.channel === 'webhook')!.lastError !== null,
      'the failure recorded',
    )
    const failed = (await deliveries(id)).find((row) => row.channel === 'webhook')!
    expect(failed.status).toBe('pending')
    expect(failed.lastError).toBe('Webhook answered 500')
    // About 30 s later (jittered ±20 %), not at once.
    const wait = Date.parse(failed.nextAttemptAt) - Date.now()
    expect(wait).toBeGreaterThan(20_000)
    expect(wait).toBeLessThan(37_000)
    await skipTheWait()
    await waitFor(() => allSent(id), 'delivery after the retry')
    const ids = hook.requests.map((request) => request.headers['webhook-id'])
    expect(ids).toEqual([`lead-${id}`, `lead-${id}`])
    expect(smtp.mails).toHaveLength(1)
  })

  it('keeps e-mail flowing while Telegram is slow: each channel has its own lane', async () => {
    telegram.fallback = { status: 200, body: { ok: true, result: {} }, delayMs: 5000 }
    try {
      // More leads than one claim holds, so a shared batch would make the e-mails wait for Telegram.
      for (let i = 0; i < 12; i++) await postLead({ email: `lane${i}@example.ru` })
      await waitFor(() => smtp.mails.length === 12, 'all twelve e-mails')
      const telegramBusy = [...telegram.inFlight.values()].reduce((sum, n) => sum + n, 0)
      expect(telegramBusy).toBeGreaterThan(0) // Telegram is still answering its first messages
    } finally {
      telegram.fallback = { status: 200, body: { ok: true, result: {} } }
    }
  })

  it('waits as long as Telegram asks after a 429, then delivers', async () => {
    telegram.answers.push({
      status: 429,
      body: {
        ok: false,
        error_code: 429,
        description: 'Too Many Requests: retry after 90',
        parameters: { retry_after: 90 },
      },
    })
    const id = await postLead()
    await waitFor(
      async () => (await deliveries(id)).find((row) => row.channel === 'telegram')!.lastError !== null,
      'the 429',
    )
    const waiting = (await deliveries(id)).find((row) => row.channel === 'telegram')!
    expect(waiting.status).toBe('pending')
    expect(Date.parse(waiting.nextAttemptAt) - Date.now()).toBeGreaterThan(85_000)
    await skipTheWait()
    await waitFor(() => allSent(id), 'delivery after the wait')
    expect(telegram.requests).toHaveLength(2)
  })

  it('gives up at once on a 400 from the webhook and keeps the error', async () => {
    hook.answers.push({ status: 400 })
    const id = await postLead()
    await waitFor(
      async () => (await deliveries(id)).find((row) => row.channel === 'webhook')!.status === 'dead',
      'dead',
    )
    const dead = (await deliveries(id)).find((row) => row.channel === 'webhook')!
    expect(dead.lastError).toBe('Webhook answered 400')
    expect(dead.attempts).toBe(1)
  })

  it('gives up on Telegram refusing the chat, and the error names no token', async () => {
    telegram.answers.push({
      status: 400,
      body: { ok: false, error_code: 400, description: 'Bad Request: chat not found' },
    })
    const id = await postLead()
    await waitFor(
      async () => (await deliveries(id)).find((row) => row.channel === 'telegram')!.status === 'dead',
      'dead',
    )
    const dead = (await deliveries(id)).find((row) => row.channel === 'telegram')!
    expect(dead.lastError).toBe('Telegram 400: Bad Request: chat not found')
  })

  it('stores a spam lead and delivers it nowhere', async () => {
    const response = await site.app.inject({
      method: 'POST',
      url: '/api/feedback',
      payload: {
        username: 'Бот',
        phone: '+79123456789',
        email: 'bot@example.ru',
        consent: true,
        website: 'http://spam',
      },
    })
    expect(response.statusCode).toBe(201)
    const id = response.json<{ data: { id: number } }>().data.id
    expect(await deliveries(id)).toEqual([])
    // A real lead after it is delivered: had the spam been queued, it would have gone out first.
    const real = await postLead({ email: 'real@example.ru' })
    await waitFor(() => allSent(real), 'the real lead delivered')
    expect(smtp.mails.map((mail) => mail.raw.includes('bot@example.ru'))).toEqual([false])
  })
})
