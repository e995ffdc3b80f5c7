// «Настройки» through the API on both databases: secrets are write-only (set/unset, never a value,
// never in the audit log), a wrong value changes nothing, a variable the operator set wins and is
// read-only, each group's check does something real (a real SMTP server, stand-ins for Telegram and
// the webhook, the site's own robots.txt), and a change saved through one process is in effect in
// another on the same database within a few seconds: delivery, the feed, Metrika, the address, 1C.
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp, type App } from '../../server/app'
import { ADMIN_API_PATHS, PATHS } from '../../src/site/paths'
import type { CheckResult, SettingsView } from '../../src/admin/admin-settings'
import { DIALECTS } from '../helpers/dialects'
import { listen, type TestApp } from '../helpers/build-test-app'
import {
  startHttpReceiver,
  startSmtpReceiver,
  waitFor,
  type HttpReceiver,
  type SmtpReceiver,
} from '../helpers/receivers'

const TOKEN = 'settings-test-admin-token-0123456789'
const BOT_TOKEN = '123456:AAbbCCddEEffGGhhIIjjKKllMMnn'
const auth = { authorization: `Bearer ${TOKEN}` }

let smtp: SmtpReceiver
let telegram: HttpReceiver
let hook: HttpReceiver

beforeAll(async () => {
  smtp = await startSmtpReceiver()
  telegram = await startHttpReceiver()
  hook = await startHttpReceiver()
})
afterAll(async () => {
  await Promise.all([smtp.close(), telegram.close(), hook.close()])
})

async function view(app: App): Promise<SettingsView> {
  const res = await app.inject({ url: ADMIN_API_PATHS.settings, headers: auth })
  expect(res.statusCode).toBe(200)
  return res.json<{ data: SettingsView }>().data
}

async function save(app: App, changes: Record<string, string | null>) {
  return app.inject({ method: 'PUT', url: ADMIN_API_PATHS.settings, headers: auth, payload: changes })
}

async function check(app: App, group: string): Promise<CheckResult> {
  const res = await app.inject({
    method: 'POST',
    url: ADMIN_API_PATHS.settingsCheck(group),
    headers: auth,
    payload: {},
  })
  expect(res.statusCode).toBe(200)
  return res.json<{ data: CheckResult }>().data
}

for (const dialect of DIALECTS) {
  describe.runIf(dialect.available)(`«Настройки» (${dialect.name})`, () => {
    let t: TestApp
    let other: App

    beforeAll(async () => {
      t = await dialect.build({
        ADMIN_TOKEN: TOKEN,
        LEAD_RATE_LIMIT: '0',
        LEAD_MIN_FILL_SECONDS: '0',
        TELEGRAM_API_URL: telegram.url,
        PUBLIC_URL: '',
      })
      // A second process on the same database, polling at the default pace
      other = await buildApp(t.config)
      await other.ready()
    })
    afterAll(async () => {
      await other?.close()
      await t?.close()
    })

    it('keeps secrets write-only, audits keys without values, and refuses a wrong value whole', async () => {
      const wrong = await save(t.app, {
        'email.server': 'smtp host',
        'email.to': 'owner@',
        'metrika.id': '12ab',
        'email.from': 'site@shop.example.ru',
      })
      expect(wrong.statusCode).toBe(400)
      expect(wrong.json().errors).toEqual({
        'email.server': 'Адрес сервера: имя и порт, например smtp.yandex.ru:465',
        'email.to': 'Это не похоже на адрес e-mail: owner@',
        'metrika.id': 'Номер счётчика — только цифры, например 12345678',
      })
      expect((await view(t.app)).values['email.from']).toBe('')

      const port = new URL(smtp.url).port
      const saved = await save(t.app, {
        'email.server': `127.0.0.1:${port}`,
        'email.login': 'user',
        'email.password': 'secret',
        'email.from': 'Витрина <site@shop.example.ru>',
        'email.to': 'owner@shop.example.ru sales@shop.example.ru',
      })
      expect(saved.statusCode).toBe(200)
      const body = saved.body
      expect(body).not.toContain('"secret"')
      const data = saved.json<{ data: SettingsView }>().data
      expect(data.secrets['email.password']).toBe(true)
      expect(data.values['email.to']).toBe('owner@shop.example.ru, sales@shop.example.ru')
      expect(data.channels).toEqual(['email'])
      expect(data.audit.map((entry) => [entry.key, entry.action, entry.who])).toContainEqual([
        'email.password',
        'set',
        'токен',
      ])
      expect(JSON.stringify(data.audit)).not.toContain('secret"')
      // An empty secret keeps it; null clears it
      await save(t.app, { 'email.password': '' })
      expect((await view(t.app)).secrets['email.password']).toBe(true)
    })

    it('sends a test e-mail and delivers a lead by the saved settings, in the other process too', async () => {
      const result = await check(t.app, 'email')
      expect(result).toEqual({ ok: true, message: 'Письмо отправлено: owner@shop.example.ru, sales@shop.example.ru' })
      expect(smtp.mails.at(-1)?.raw).toContain('Subject:')
      await waitFor(async () => (await check(other, 'email')).ok, 'the other process to use the saved settings', 6000)
      const mails = smtp.mails.length
      const lead = await other.inject({
        method: 'POST',
        url: '/api/feedback',
        payload: { username: 'Анна', phone: '+7 912 345-67-89', email: 'anna@example.ru', consent: true },
      })
      expect(lead.statusCode).toBe(201)
      await waitFor(() => smtp.mails.length > mails, 'the lead by e-mail')
      expect(smtp.mails.at(-1)?.raw).toMatch(/^X-Lead-ID: \d+/i)
    })

    it('checks Telegram, finds the chat from getUpdates, and signs the webhook with the generated secret', async () => {
      telegram.answers.push({
        status: 200,
        body: { ok: true, result: [{ update_id: 1, message: { chat: { id: -1001234, title: 'Заявки' } } }] },
      })
      expect(await save(t.app, { 'telegram.token': BOT_TOKEN })).toHaveProperty('statusCode', 200)
      const chats = await t.app.inject({
        method: 'POST',
        url: ADMIN_API_PATHS.settingsTelegramChats,
        headers: auth,
        payload: {},
      })
      expect(chats.json().data).toEqual([{ id: '-1001234', title: 'Заявки' }])
      expect(telegram.requests.at(-1)?.url).toBe(`/bot${BOT_TOKEN}/getUpdates`)
      await save(t.app, { 'telegram.chatId': '-1001234' })
      expect(await check(t.app, 'telegram')).toEqual({ ok: true, message: 'Сообщение отправлено: -1001234' })
      expect(JSON.parse(telegram.requests.at(-1)!.body)).toMatchObject({ chat_id: '-1001234' })
      expect(JSON.stringify(await view(t.app))).not.toContain(BOT_TOKEN)

      const generated = await t.app.inject({
        method: 'POST',
        url: ADMIN_API_PATHS.settingsWebhookSecret,
        headers: auth,
        payload: {},
      })
      const { secret } = generated.json<{ data: { secret: string } }>().data
      await save(t.app, { 'webhook.url': `${hook.url}/crm` })
      expect((await check(t.app, 'webhook')).ok).toBe(true)
      const call = hook.requests.at(-1)!
      expect(() => new Webhook(secret).verify(call.body, call.headers as Record<string, string>)).not.toThrow()
      const after = await view(t.app)
      expect(JSON.stringify(after)).not.toContain(secret.slice(6))
      expect(after.audit.find((entry) => entry.key === 'webhook.secret')?.action).toBe('generated')
      hook.fallback = { status: 500 }
      expect(await check(t.app, 'webhook')).toEqual({ ok: false, message: 'Адрес вебхука ответил 500' })
      hook.fallback = { status: 200 }
    })

    it('checks the public address against its own robots.txt and warns 1C of a local one', async () => {
      expect((await view(t.app)).publicUrlWarning).toMatch(/^Адрес сайта не задан/)
      const origin = await listen(t)
      await save(t.app, { 'site.publicUrl': `${origin}/` })
      const shown = await view(t.app)
      expect(shown.publicUrl).toBe(origin)
      expect(shown.publicUrlWarning).toMatch(/^Адрес сайта локальный \(127\.0\.0\.1\)/)
      expect(shown.exchangeUrl).toBe(`${origin}/1c/exchange`)
      expect(await check(t.app, 'public-url')).toEqual({ ok: true, message: `Сайт отвечает по адресу ${origin}` })
      expect((await t.app.inject({ url: PATHS.robots })).body).toContain(`Sitemap: ${origin}/sitemap.xml`)
      await save(t.app, { 'site.publicUrl': hook.url })
      expect((await check(t.app, 'public-url')).message).toMatch(/robots\.txt не этого сайта/)
    })

    it('turns the feed and the counter on and off without a restart, in both processes', async () => {
      expect((await t.app.inject({ url: PATHS.yandexFeed })).statusCode).toBe(404)
      await save(t.app, { 'feed.enabled': 'true', 'feed.shopName': 'Магазин Проверка', 'metrika.id': '987654321' })
      const feed = await t.app.inject({ url: PATHS.yandexFeed })
      expect(feed.statusCode).toBe(200)
      expect(feed.body).toContain('<name>Магазин Проверка</name>')
      expect((await check(t.app, 'feed')).message).toMatch(/^Фид собран: предложений \d+/)
      expect((await check(t.app, 'metrika')).ok).toBe(true)
      await waitFor(
        async () => (await other.inject({ url: '/' })).body.includes('987654321'),
        'the counter in the other process',
        6000,
      )
      expect((await other.inject({ url: '/' })).headers['content-security-policy']).toContain('mc.yandex.ru')
      await save(t.app, { 'feed.enabled': 'false' })
      await waitFor(
        async () => (await other.inject({ url: PATHS.yandexFeed })).statusCode === 404,
        'the feed off',
        6000,
      )
    })

    it('takes the saved address for the session cookie and the back office’s origin check', async () => {
      await save(t.app, { 'site.publicUrl': 'https://magazin.example.ru' })
      const signIn = (origin: string) =>
        t.app.inject({ method: 'POST', url: ADMIN_API_PATHS.session, headers: { origin }, payload: { secret: TOKEN } })
      expect((await signIn('https://elsewhere.example.ru')).statusCode).toBe(403)
      const res = await signIn('https://magazin.example.ru')
      expect(res.statusCode).toBe(204)
      expect(String(res.headers['set-cookie'])).toMatch(/; Secure/)
    })

    it('generates the 1C password once and checks 1C against its hash', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: ADMIN_API_PATHS.settingsExchangePassword,
        headers: auth,
        payload: {},
      })
      const { password } = res.json<{ data: { password: string } }>().data
      expect(password).toMatch(/^[A-Za-z2-9]{20}$/)
      const shown = await view(t.app)
      expect(shown.values['exchange.login']).toBe('obmen1c')
      expect(shown.secrets['exchange.password']).toBe(true)
      expect(JSON.stringify(shown)).not.toContain(password)
      const basic = (login: string, pass: string) => `Basic ${Buffer.from(`${login}:${pass}`).toString('base64')}`
      const url = '/1c/exchange?type=catalog&mode=checkauth'
      expect((await t.app.inject({ url, headers: { authorization: basic('obmen1c', password) } })).body).toMatch(
        /^success\n/,
      )
      expect((await t.app.inject({ url, headers: { authorization: basic('obmen1c', 'wrong') } })).statusCode).toBe(401)
      const typed = await save(t.app, { 'exchange.password': 'my-own-password' })
      expect(typed.json().errors['exchange.password']).toBe('Пароль обмена создаётся кнопкой «Создать пароль»')
    })
  })
}

describe('a variable the operator set', () => {
  it('wins, shows read-only with its name, and cannot be changed here', async () => {
    const t = await DIALECTS[0].build({
      ADMIN_TOKEN: TOKEN,
      METRIKA_ID: '111',
      EXCHANGE_1C_LOGIN: 'env-login',
      EXCHANGE_1C_PASSWORD: 'env-password-1',
    })
    try {
      const shown = await view(t.app)
      expect(shown.values['metrika.id']).toBe('111')
      expect(shown.fromEnv).toMatchObject({
        'metrika.id': 'METRIKA_ID',
        'exchange.login': 'EXCHANGE_1C_LOGIN',
        'site.publicUrl': 'PUBLIC_URL',
      })
      expect(shown.secrets['exchange.password']).toBe(true)
      expect(JSON.stringify(shown)).not.toContain('env-password-1')
      const refused = await save(t.app, { 'metrika.id': '222', 'feed.shopName': 'Можно' })
      expect(refused.statusCode).toBe(400)
      expect(refused.json().errors).toEqual({ 'metrika.id': 'Задано на сервере (METRIKA_ID): здесь не меняется' })
      expect((await view(t.app)).values['feed.shopName']).toBe('')
      const generate = await t.app.inject({
        method: 'POST',
        url: ADMIN_API_PATHS.settingsExchangePassword,
        headers: auth,
        payload: {},
      })
      expect(generate.statusCode).toBe(409)
      const anonymous = await t.app.inject({ url: ADMIN_API_PATHS.settings })
      expect(anonymous.statusCode).toBe(401)
    } finally {
      await t.close()
    }
  })
})
