// Telegram's servers are abroad: by default a lead reaches Telegram as its number, the site, the
// page and product and a link to the back office, without the visitor's name, phone or e-mail
// (checked on the raw request body the Bot API stand-in received). TELEGRAM_FULL_TEXT=true sends
// the whole lead; e-mail and the webhook are the owner's own systems and always carry it.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
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
const VISITOR = { username: 'Мария Ёлкина', phone: '+7 (916) 555-01-23', email: 'maria.elkina@example.ru' }

let smtp: SmtpReceiver
let telegram: HttpReceiver
let hook: HttpReceiver
let site: TestApp | null = null

beforeAll(async () => {
  smtp = await startSmtpReceiver()
  telegram = await startHttpReceiver(() => 'ok')
  hook = await startHttpReceiver(() => 'ok')
})

afterAll(async () => {
  await Promise.all([smtp.close(), telegram.close(), hook.close()])
})

beforeEach(() => {
  smtp.mails.length = 0
  telegram.requests.length = 0
  hook.requests.length = 0
})

afterEach(async () => {
  await site?.close()
  site = null
})

async function sendLead(env: Record<string, string>): Promise<{ id: number; product: { url: string; title: string } }> {
  site = await buildTestApp({
    LEAD_RATE_LIMIT: '0',
    SMTP_URL: smtp.url,
    LEAD_EMAIL_TO: 'owner@shop.example.ru',
    LEAD_EMAIL_FROM: 'site@shop.example.ru',
    TELEGRAM_BOT_TOKEN: BOT_TOKEN,
    TELEGRAM_CHAT_ID: '-1001234567890',
    TELEGRAM_API_URL: telegram.url,
    LEAD_WEBHOOK_URL: `${hook.url}/crm`,
    LEAD_WEBHOOK_SECRET: SECRET,
    ...env,
  })
  const app = site.app
  const product = await app.db
    .selectFrom('structure')
    .select(['urlFull as url', 'title'])
    .where('typeId', '=', 'product')
    .where('published', '=', 1)
    .orderBy('id')
    .executeTakeFirstOrThrow()
  const response = await app.inject({
    method: 'POST',
    url: '/api/feedback',
    payload: { ...VISITOR, consent: true, sourceUrl: product.url, utm: { utm_source: 'yandex' } },
  })
  expect(response.statusCode).toBe(201)
  const id = response.json<{ data: { id: number } }>().data.id
  await waitFor(async () => {
    const rows = await app.db.selectFrom('leadDelivery').select('status').where('feedbackId', '=', id).execute()
    return rows.length === 3 && rows.every((row) => row.status === 'sent')
  }, 'all three deliveries')
  return { id, product }
}

/** Every way the visitor's details could be written: as typed, digits only, E.164, escaped. */
const PERSONAL = ['Мария', 'Ёлкина', 'maria.elkina', '(916)', '555-01-23', '5550123', '79165550123']

describe('the Telegram message by default', () => {
  it('names the lead, site, page and product and links the back office, with no name, phone or e-mail', async () => {
    const { id, product } = await sendLead({})
    expect(telegram.requests).toHaveLength(1)
    const raw = telegram.requests[0].body
    for (const fragment of PERSONAL) expect(raw).not.toContain(fragment)
    expect(raw).not.toContain('utm_source')
    const { text } = JSON.parse(raw) as { text: string }
    expect(text).toContain(`Новая заявка №${id} с сайта shop.example.ru`)
    expect(text).toContain(`https://shop.example.ru${product.url}`)
    expect(text).toContain(`https://shop.example.ru/admin?lead=${id}`)
    expect(text).toContain(product.title.replace(/&/g, '&#38;'))

    // E-mail and the webhook still carry the whole lead.
    expect(smtp.mails[0].raw).toContain('maria.elkina@example.ru')
    expect(JSON.parse(hook.requests[0].body)).toMatchObject({
      data: { name: VISITOR.username, email: VISITOR.email, phoneE164: '+79165550123' },
    })
  })
})

describe('with TELEGRAM_FULL_TEXT=true', () => {
  it('carries the name, phone and e-mail', async () => {
    await sendLead({ TELEGRAM_FULL_TEXT: 'true' })
    const { text } = JSON.parse(telegram.requests[0].body) as { text: string }
    expect(text).toContain('Мария Ёлкина')
    expect(text).toContain('+7 (916) 555-01-23')
    expect(text).toContain('maria.elkina@example.ru')
  })
})
