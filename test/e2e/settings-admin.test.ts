// «Настройки» in Chromium against the production build, at 1366×900 and 390×844, on both databases:
// each group is filled in and its check does something real: a test e-mail reaches a real SMTP
// server, «Проверить» reaches a stand-in Telegram (and «Найти чат» reads its getUpdates), the
// webhook's test call carries a signature the generated secret verifies, the address check fetches
// the site's own robots.txt, the feed and the counter are found, and 1C's generated password opens
// an exchange. A wrong value shows its Russian reason and changes nothing; a variable the operator
// set shows read-only; no secret is on the page after a reload; axe finds nothing (each size scanned
// on SQLite: the same screen on PostgreSQL proves nothing more).
import type { Browser, Page } from 'playwright-core'
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_API_PATHS, ADMIN_PATHS } from '../../src/site/paths'
import { launchBrowser } from '../helpers/browser'
import { ensureBuild, NOT_KEPT_ALIVE, type ProdServer } from '../helpers/prod-server'
import { createTestSchema, TEST_DATABASE_URL, type TestSchema } from '../helpers/postgres'
import { startHttpReceiver, startSmtpReceiver, type HttpReceiver, type SmtpReceiver } from '../helpers/receivers'
import { ADMIN_SECRET, AXE_DIALECT, axeViolations, openSignedIn, startAdminServer } from './admin-helpers'

const SIZES = [
  { name: 'desktop', width: 1366, height: 900 },
  { name: 'phone', width: 390, height: 844 },
]
const BOT_TOKEN = '123456:AAbbCCddEEffGGhhIIjjKKllMMnn'
const CHAT = '-1009876543210'

let browser: Browser
let smtp: SmtpReceiver
let telegram: HttpReceiver
let hook: HttpReceiver

beforeAll(async () => {
  ensureBuild()
  browser = await launchBrowser()
  smtp = await startSmtpReceiver()
  telegram = await startHttpReceiver()
  hook = await startHttpReceiver()
})
afterAll(async () => {
  await browser?.close()
  await Promise.all([smtp?.close(), telegram?.close(), hook?.close()])
})

/** The group's section, found by its heading. */
const group = (page: Page, title: string) =>
  page.locator('section', { has: page.getByRole('heading', { name: title, level: 2 }) })

async function checkSays(page: Page, title: string, button: string, text: RegExp | string) {
  const section = group(page, title)
  await section.getByRole('button', { name: button }).click()
  await section.locator('.settings__result').filter({ hasText: text }).waitFor()
}

async function walkGroups(page: Page, server: ProdServer) {
  // E-mail: a wrong address first (its reason, nothing saved), then a real SMTP server.
  const email = group(page, 'Письма о заявках')
  await email.getByLabel('Получатели').fill('owner@')
  await email.getByRole('button', { name: 'Сохранить' }).click()
  await email.getByText('Это не похоже на адрес e-mail: owner@').waitFor()
  await email.getByLabel('Почтовый сервер (SMTP)').fill(`127.0.0.1:${new URL(smtp.url).port}`)
  await email.getByLabel('Логин').fill('user')
  await email.getByLabel('Пароль').fill('secret')
  await email.getByLabel('Отправитель').fill('Сайт <site@shop.example.ru>')
  await email.getByLabel('Получатели').fill('owner@shop.example.ru')
  const mails = smtp.mails.length
  await checkSays(page, 'Письма о заявках', 'Отправить тестовое письмо', 'Письмо отправлено: owner@shop.example.ru')
  expect(smtp.mails.length).toBe(mails + 1)
  expect(smtp.mails.at(-1)?.to).toEqual(['owner@shop.example.ru'])

  // Telegram: the token, the chat found from a message to the bot, a test message.
  const tg = group(page, 'Telegram')
  await tg.getByLabel('Токен бота').fill(BOT_TOKEN)
  await tg.getByRole('button', { name: 'Сохранить' }).click()
  await tg.getByRole('status').filter({ hasText: 'Сохранено' }).waitFor()
  telegram.answers.push({
    status: 200,
    body: { ok: true, result: [{ update_id: 7, message: { chat: { id: Number(CHAT), title: 'Заявки магазина' } } }] },
  })
  await tg.getByRole('button', { name: 'Найти чат' }).click()
  await tg.getByRole('button', { name: `Выбрать ${CHAT}` }).click()
  await expect.poll(() => tg.getByLabel('Чат', { exact: true }).inputValue()).toBe(CHAT)
  await checkSays(page, 'Telegram', 'Проверить', `Сообщение отправлено: ${CHAT}`)
  expect(JSON.parse(telegram.requests.at(-1)!.body)).toMatchObject({ chat_id: CHAT })

  // The webhook: a generated secret, shown once, verifies the test call's signature.
  const wh = group(page, 'Вебхук')
  await wh.getByRole('button', { name: /^Создать (новый )?секрет$/ }).click()
  const secret = (await wh.locator('.settings__once code').textContent())!
  expect(secret).toMatch(/^whsec_/)
  await wh.getByLabel('Адрес вебхука').fill(`${hook.url}/crm`)
  await checkSays(page, 'Вебхук', 'Отправить тестовый вызов', 'Подписанный тестовый вызов принят: ответ 200')
  const call = hook.requests.at(-1)!
  expect(() => new Webhook(secret).verify(call.body, call.headers as Record<string, string>)).not.toThrow()

  // The site's address, checked through its own robots.txt.
  await group(page, 'Адрес сайта').getByLabel('Адрес сайта').fill(server.url)
  await checkSays(page, 'Адрес сайта', 'Проверить адрес', `Сайт отвечает по адресу ${server.url}`)

  // The feed (its default brand set on the server: read-only) and the counter.
  const feed = group(page, 'Фид для Яндекса')
  await feed.getByText('Задано на сервере (YANDEX_FEED_VENDOR)').waitFor()
  expect(await feed.getByLabel('Бренд по умолчанию').getAttribute('readonly')).not.toBeNull()
  await feed.getByLabel('Отдавать фид для Яндекса').check()
  await feed.getByLabel('Название магазина').fill('Магазин в браузере')
  await checkSays(page, 'Фид для Яндекса', 'Проверить фид', /^Фид собран: предложений \d+/)
  await group(page, 'Яндекс Метрика').getByLabel('Номер счётчика Яндекс Метрики').fill('12345678')
  await checkSays(page, 'Яндекс Метрика', 'Проверить счётчик', /^Счётчик 12345678 есть на главной странице/)

  // 1C: a local address is warned of; the password is shown once and opens an exchange.
  const oneC = group(page, 'Обмен с 1С')
  await oneC.getByText(/^Адрес сайта локальный \(127\.0\.0\.1\)/).waitFor()
  await oneC.getByRole('button', { name: /^Создать (новый )?пароль$/ }).click()
  const password = (await oneC.locator('.settings__once code').textContent())!
  await oneC.getByRole('button', { name: 'Копировать: пароль' }).click()
  await oneC.getByRole('status').filter({ hasText: 'Скопировано' }).first().waitFor()
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(password)
  const login = await oneC.getByLabel('Логин для 1С').inputValue()
  const checkauth = await fetch(`${server.url}/1c/exchange?type=catalog&mode=checkauth`, {
    headers: { authorization: `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`, ...NOT_KEPT_ALIVE },
  })
  expect(await checkauth.text()).toMatch(/^success\n/)
  return { secret, password }
}

const DIALECTS = [
  { name: 'SQLite', available: true },
  { name: 'PostgreSQL', available: Boolean(TEST_DATABASE_URL) },
]

for (const dialect of DIALECTS)
  describe.runIf(dialect.available)(`«Настройки» in the back office on ${dialect.name}`, () => {
    let server: ProdServer
    let schema: TestSchema | undefined
    beforeAll(async () => {
      schema = dialect.name === 'PostgreSQL' ? await createTestSchema() : undefined
      server = await startAdminServer({
        // The address is the owner's to set here; the default brand is the operator's.
        PUBLIC_URL: '',
        YANDEX_FEED_VENDOR: 'Своя марка',
        TELEGRAM_API_URL: telegram.url,
        ...(schema ? { DATABASE_URL: schema.url } : {}),
      })
    })
    afterAll(async () => {
      await server?.stop()
      server?.cleanup()
      await schema?.drop()
    })

    for (const size of SIZES)
      it(`sets up and checks every group at ${size.width}×${size.height}`, async () => {
        const { page, context, errors } = await openSignedIn(browser, server, ADMIN_PATHS.settings, size)
        await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url })
        await page.getByRole('heading', { name: 'Настройки', level: 1 }).waitFor()
        const scan = dialect.name === AXE_DIALECT
        if (scan) expect(await axeViolations(page, `settings ${size.name}`)).toEqual([])
        const { secret, password } = await walkGroups(page, server)

        // After a reload no secret is anywhere on the page or in its answers; the log names the keys.
        await page.reload()
        await group(page, 'Журнал изменений').getByText('email.password').first().waitFor()
        const html = await page.content()
        for (const value of [secret, password, BOT_TOKEN, 'secret"']) expect(html).not.toContain(value)
        const api = await fetch(server.url + ADMIN_API_PATHS.settings, {
          headers: { authorization: `Bearer ${ADMIN_SECRET}`, ...NOT_KEPT_ALIVE },
        })
        const body = await api.text()
        for (const value of [secret, password, BOT_TOKEN]) expect(body).not.toContain(value)
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(size.width)
        if (scan) expect(await axeViolations(page, `settings ${size.name} after the checks`)).toEqual([])
        expect(errors()).toEqual([])
        await context.close()
      }, 120_000)
  })
