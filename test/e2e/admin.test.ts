// The back office's sign-in and leads inbox in headless Chromium against the production build:
// sign-in, a wrong secret, session expiry, sign-out, the rate limit; a lead sent through the
// public form appearing in the inbox, its details, status change, resend, «Не спам», search,
// CSV; a phone-sized screen; axe-core over the sign-in form and the inbox.
import { execFile } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import type { Browser, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { SQLite as Database } from '../../server/data/sqlite-driver'
import { encodeRecord } from '../../server/leads/intake/journal'
import { launchBrowser, waitForVike } from '../helpers/browser'
import { ensureBuild, startProdServer, type ProdServer } from '../helpers/prod-server'
import { startHttpReceiver, waitFor, type HttpReceiver } from '../helpers/receivers'
import {
  ADMIN_SECRET,
  axeViolations,
  openAdmin,
  openSignedIn,
  signIn,
  startAdminServer,
  type AdminTab,
  type PrepareContext,
} from './admin-helpers'

// Browser work under a loaded CI machine: each test gets 90 s (the default is 30 s).
let server: ProdServer
let browser: Browser
let hook: HttpReceiver
const tabs: AdminTab[] = []

beforeAll(async () => {
  ensureBuild()
  hook = await startHttpReceiver()
  // The webhook refuses until a test says otherwise: the deliveries stay pending with an error.
  hook.fallback = { status: 500, body: { error: 'down' } }
  server = await startAdminServer({
    LEAD_WEBHOOK_URL: `${hook.url}/hook`,
    LEAD_WEBHOOK_SECRET: `whsec_${Buffer.from('admin browser test secret, 32 bytes').toString('base64')}`,
  })
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
  await server?.stop()
  server?.cleanup()
  await hook?.close()
})
afterEach(async () => {
  for (const tab of tabs.splice(0)) {
    expect(tab.errors()).toEqual([])
    await tab.context.close()
  }
})

async function admin(
  path = '/admin',
  viewport?: { width: number; height: number },
  signedIn = true,
  prepare?: PrepareContext,
) {
  const tab = signedIn
    ? await openSignedIn(browser, server, path, viewport, prepare)
    : await openAdmin(browser, server, path, viewport, prepare)
  tabs.push(tab)
  return tab
}

function writeDb(statement: string, ...params: unknown[]): void {
  const db = new Database(server.dbPath)
  try {
    db.prepare(statement).run(...params)
  } finally {
    db.close()
  }
}

/** Sends a lead through the lead dialog of a public page, as a visitor does. */
async function sendLeadFromSite(path: string, name: string, email: string, phone = '8 999 123-45-67') {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'ru-RU' })
  try {
    const page = await context.newPage()
    await page.goto(`${server.url}${path}`)
    await waitForVike(page, path.split('?')[0])
    // A product page has its own button (the lead then names the product); others use the header's.
    const area = path.startsWith('/structure/product') ? 'main' : 'header'
    await page.locator(area).getByRole('button', { name: 'Оставить заявку' }).click()
    const dialog = page.getByRole('dialog', { name: 'Оставить заявку' })
    await dialog.getByLabel('Ваше имя').fill(name)
    await dialog.getByLabel('Ваш телефон').fill(phone)
    await dialog.getByLabel('Ваш E-mail').fill(email)
    await dialog.getByRole('checkbox', { name: 'Я даю согласие на обработку персональных данных' }).check()
    await dialog.getByRole('button', { name: 'Отправить' }).click()
    await page.getByRole('dialog', { name: 'Заявка отправлена' }).waitFor()
  } finally {
    await context.close()
  }
}

const signInAnswer = (page: Page) =>
  page.waitForResponse((r) => r.url().endsWith('/api/admin/session') && r.request().method() === 'POST')

const card = (page: Page, name: string) => page.locator('article').filter({ has: page.getByRole('heading', { name }) })
const tab = (page: Page, label: string) => page.getByRole('button', { name: new RegExp(`^${label} `) })

describe('signing in to the back office', { timeout: 90_000 }, () => {
  it('asks for the secret, refuses a wrong one, keeps the session across reloads and signs out', async () => {
    const { page } = await admin('/admin', undefined, false)
    await page.getByRole('heading', { name: 'Вход в управление сайтом' }).waitFor()
    // The back office has its own frame: not the site's header, footer or lead dialog.
    expect(await page.getByRole('button', { name: 'Оставить заявку' }).count()).toBe(0)
    expect(await page.locator('meta[name="robots"]').getAttribute('content')).toBe('noindex, nofollow')

    await signIn(page, 'not-the-secret')
    await page.getByText('Неверный пароль').waitFor()
    expect(await page.getByLabel('Пароль').getAttribute('aria-invalid')).toBe('true')
    expect(await page.evaluate(() => document.activeElement?.getAttribute('type'))).toBe('password')

    await signIn(page)
    await page.getByRole('heading', { name: 'Заявки', level: 1 }).waitFor()
    await page.reload()
    await page.getByRole('heading', { name: 'Заявки', level: 1 }).waitFor()

    await page.getByRole('button', { name: 'Выйти' }).click()
    await page.getByRole('heading', { name: 'Вход в управление сайтом' }).waitFor()
    await page.reload()
    await page.getByRole('heading', { name: 'Вход в управление сайтом' }).waitFor()
    expect(await page.getByRole('button', { name: 'Выйти' }).count()).toBe(0)
  })

  it('shows the sign-in form again when the session expires, and carries on after signing in', async () => {
    const { page } = await admin()
    await page.getByRole('heading', { name: 'Заявки', level: 1 }).waitFor()
    // The inbox has loaded its lists and counts: no request of its first screen is still on the way
    // (one that reached the server after the expiry below would show the sign-in form before the click).
    await tab(page, 'Закрытые').waitFor()
    await page.waitForLoadState('networkidle')
    // The server's own clock decides: the session's expiry is moved into the past in the database.
    writeDb(`update adminSession set expiresAt = ?`, '2000-01-01T00:00:00.000Z')
    await tab(page, 'Закрытые').click()
    await page.getByText('Сессия истекла. Войдите снова.').waitFor()
    await signIn(page)
    await page.getByRole('heading', { name: 'Заявки', level: 1 }).waitFor()
  })
})

describe('the leads inbox', { timeout: 90_000 }, () => {
  it('shows a lead sent through the public form without a reload, with its source and deliveries', async () => {
    // The inbox's clock is Playwright's: it runs as a real one, and the test moves it past the
    // 10 s poll instead of waiting for it.
    const { page } = await admin('/admin', undefined, true, (context) => context.clock.install())
    await page.getByRole('heading', { name: 'Заявки', level: 1 }).waitFor()
    await sendLeadFromSite('/structure/product', 'Пётр Покупателев', 'petr@example.ru', '8 912 555-44-33')

    const lead = card(page, 'Пётр Покупателев')
    // The poll brings it in without a reload; the live region says so.
    await page.clock.fastForward(10_000)
    await lead.waitFor({ timeout: 25_000 })
    await page.getByText(/Поступила новая заявка/).waitFor({ state: 'attached' })
    expect(await lead.getByRole('link', { name: 'petr@example.ru' }).getAttribute('href')).toBe(
      'mailto:petr@example.ru',
    )
    // A phone link calls (tel:), not a page of the back office named after the number.
    expect(await lead.getByRole('link', { name: /555-44-33/ }).getAttribute('href')).toBe('tel:+79125554433')

    await lead.getByText('Подробности').click()
    await lead.getByText('/structure/product').waitFor()
    await lead.getByText(/Не доставлено|Ожидает отправки/).waitFor()
    await expect.poll(() => lead.getByText('Согласие').count()).toBe(1)

    // «Отправить ещё раз» once the webhook works: the delivery goes out and shows as sent.
    hook.fallback = { status: 200, body: { ok: true } }
    const before = hook.requests.length
    await lead.getByRole('button', { name: 'Отправить ещё раз' }).click()
    await waitFor(() => hook.requests.length > before, 'the resent webhook')
    await expect
      .poll(
        async () => {
          await page.reload()
          await card(page, 'Пётр Покупателев').getByText('Подробности').click()
          return card(page, 'Пётр Покупателев')
            .getByText(/^Вебхук: Отправлено/)
            .count()
        },
        { timeout: 15_000 },
      )
      .toBe(1)
  })

  it('lists the leads the database refused for good, with a way to call the visitor back', async () => {
    const journal = path.join(server.dir, 'journal')
    fs.mkdirSync(journal, { recursive: true })
    fs.appendFileSync(
      path.join(journal, 'dead-letters.journal'),
      encodeRecord({
        movedAt: '2026-03-02T09:05:00.000Z',
        reason: '22021: invalid byte sequence for encoding "UTF8": 0x00',
        entry: {
          at: '2026-03-02T09:00:00.000Z',
          lead: { username: 'Зоя Несохранённая', phone: '+7 916 222-33-44', email: 'zoya@example.ru', consent: true },
          spam: false,
          idempotencyKey: 'dead-1',
          origin: { sourceUrl: '/structure/product', product: null, utm: null },
          consent: { ip: '203.0.113.7', userAgent: null, version: 'label-only' },
        },
      }),
    )
    try {
      const { page } = await admin()
      const letters = page.getByRole('region', { name: 'Не удалось сохранить заявки: 1' })
      await letters.waitFor()
      await letters.getByText('Зоя Несохранённая').waitFor()
      expect(await letters.getByRole('link', { name: '+7 916 222-33-44' }).getAttribute('href')).toBe(
        'tel:+79162223344',
      )
      await letters.getByText(/Причина: 22021/).waitFor()
    } finally {
      fs.rmSync(path.join(journal, 'dead-letters.journal'), { force: true })
    }
  })

  it('changes a lead’s status, moving it between the tabs with their counts', async () => {
    await sendLeadFromSite('/', 'Ольга Статусова', 'olga@example.ru')
    const { page } = await admin()
    const lead = card(page, 'Ольга Статусова')
    await lead.waitFor()
    const newCount = Number((await tab(page, 'Новые').textContent())!.replace(/\D/g, ''))
    await lead.getByLabel('Статус').selectOption({ label: 'В работе' })
    await lead.waitFor({ state: 'detached' })
    await expect
      .poll(async () => (await tab(page, 'Новые').textContent())!.replace(/\D/g, ''))
      .toBe(String(newCount - 1))
    await tab(page, 'В работе').click()
    await card(page, 'Ольга Статусова').waitFor()
    expect(await card(page, 'Ольга Статусова').getByLabel('Статус').inputValue()).toBe('in_progress')
  })

  it('finds leads by name, phone digits or e-mail', async () => {
    await sendLeadFromSite('/', 'Семён Поисков', 'semen@example.ru', '8 (977) 100-20-30')
    const { page } = await admin()
    const search = page.getByLabel('Поиск по имени, телефону или e-mail')
    for (const query of ['поиск', '9771002030', 'SEMEN@']) {
      await search.fill(query)
      await page.getByRole('button', { name: 'Найти' }).click()
      await card(page, 'Семён Поисков').waitFor()
      await expect.poll(() => page.locator('article').count()).toBe(1)
    }
    // The Telegram message links to /admin?lead=N: the inbox opens at that lead alone.
    const number = /№ (\d+)/.exec(await card(page, 'Семён Поисков').innerText())![1]
    await sendLeadFromSite('/', 'Другой Покупатель', 'other@example.ru', '8 (977) 100-20-31')
    const linked = await admin(`/admin?lead=${number}`)
    await card(linked.page, 'Семён Поисков').waitFor()
    await expect.poll(() => linked.page.locator('article').count()).toBe(1)
    await search.fill('нет такого человека')
    await page.getByRole('button', { name: 'Найти' }).click()
    await page.getByText('Ничего не найдено.').waitFor()
  })

  it('shows the newest first, 20 a page', async () => {
    for (let i = 1; i <= 21; i++) {
      const res = await fetch(`${server.url}/api/feedback`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          username: `Постраничный ${i}`,
          phone: '+7 916 111-22-33',
          email: `page${i}@example.ru`,
          consent: true,
        }),
      })
      expect(res.status).toBe(201)
    }
    const { page } = await admin()
    await page.getByLabel('Поиск по имени, телефону или e-mail').fill('Постраничный')
    await page.getByRole('button', { name: 'Найти' }).click()
    await page.getByText('Страница 1 из 2').waitFor()
    await expect.poll(() => page.locator('article').count()).toBe(20)
    expect(await page.locator('article h2').first().textContent()).toBe('Постраничный 21')
    await page.getByRole('button', { name: 'Вперёд' }).click()
    await page.getByText('Страница 2 из 2').waitFor()
    await expect.poll(() => page.locator('article h2').allTextContents()).toEqual(['Постраничный 1'])
  })

  it('lists spam apart and delivers a lead marked «Не спам»', async () => {
    const res = await fetch(`${server.url}/api/feedback`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        username: 'Виктор Неспамов',
        phone: '+7 916 000-11-22',
        email: 'victor@example.ru',
        consent: true,
        website: 'http://bot.example',
      }),
    })
    expect(res.status).toBe(201)
    hook.fallback = { status: 200, body: { ok: true } }
    const { page } = await admin()
    await page.getByRole('heading', { name: 'Заявки', level: 1 }).waitFor()
    expect(await card(page, 'Виктор Неспамов').count()).toBe(0)
    await tab(page, 'Спам').click()
    const lead = card(page, 'Виктор Неспамов')
    await lead.getByText('Спам', { exact: true }).waitFor()
    const before = hook.requests.length
    await lead.getByRole('button', { name: 'Не спам' }).click()
    await lead.waitFor({ state: 'detached' })
    await waitFor(() => hook.requests.slice(before).some((r) => r.body.includes('victor@example.ru')), 'its delivery')
    await tab(page, 'Новые').click()
    await card(page, 'Виктор Неспамов').waitFor()
  })

  it('downloads the leads as the command-line CSV file', async () => {
    await sendLeadFromSite('/', 'Анна Таблицева', 'anna.csv@example.ru')
    const { page } = await admin()
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Скачать CSV' }).click(),
    ])
    expect(download.suggestedFilename()).toMatch(/^leads-\d{8}\.csv$/)
    const file = fs.readFileSync(await download.path())
    expect(file.toString('utf8')).toContain('anna.csv@example.ru')
    // Byte for byte what `npm run leads -- export --format csv` writes.
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'server/tools/leads.ts', 'export', '--format', 'csv'],
      { env: { ...process.env, VITRINA_URL: server.url, ADMIN_TOKEN: ADMIN_SECRET }, encoding: 'buffer' },
    )
    expect(stdout.equals(file)).toBe(true)
  })

  it('fits a 360 px phone: cards reflow, nothing scrolls sideways', async () => {
    await sendLeadFromSite('/', 'Константин Длиннофамильный-Телефонов', 'konstantin.very.long.address@example.ru')
    const { page } = await admin('/admin', { width: 360, height: 740 })
    const lead = card(page, 'Константин Длиннофамильный-Телефонов')
    await lead.waitFor()
    await lead.getByText('Подробности').click()
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)
  })
})

describe('accessibility of sign-in and inbox', { timeout: 90_000 }, () => {
  it('has no axe-core violations at 1366 px and 360 px', async () => {
    const found: string[] = []
    for (const viewport of [
      { width: 1366, height: 900 },
      { width: 360, height: 740 },
    ]) {
      const signInTab = await admin('/admin', viewport, false)
      await signInTab.page.getByRole('heading', { name: 'Вход в управление сайтом' }).waitFor()
      found.push(...(await axeViolations(signInTab.page, `sign-in @${viewport.width}`)))
      await signIn(signInTab.page, 'wrong-secret-for-axe')
      await signInTab.page.getByText('Неверный пароль').waitFor()
      found.push(...(await axeViolations(signInTab.page, `sign-in error @${viewport.width}`)))

      const { page } = await admin('/admin', viewport)
      await page.locator('article').first().waitFor()
      await page.locator('article').first().getByText('Подробности').click()
      found.push(...(await axeViolations(page, `inbox @${viewport.width}`)))
    }
    expect(found).toEqual([])
  })
})

describe('the sign-in limit', { timeout: 90_000 }, () => {
  it('refuses the sixth attempt in a minute from one address in Russian, not another address', async () => {
    const { page } = await admin('/admin', undefined, false)
    for (let i = 0; i < 5; i++) {
      const [answer] = await Promise.all([signInAnswer(page), signIn(page, `wrong-secret-${i}`)])
      expect(answer.status()).toBe(401)
    }
    const [answer] = await Promise.all([signInAnswer(page), signIn(page)])
    expect(answer.status()).toBe(429)
    await page.getByText('Слишком много попыток входа. Попробуйте через минуту.').waitFor()
    // Another address is not affected.
    const other = await admin()
    await other.page.getByRole('heading', { name: 'Заявки', level: 1 }).waitFor()
  })
})

describe('without an admin secret', { timeout: 90_000 }, () => {
  it('says in Russian that the link to choose a password is in the server console, and offers no form', async () => {
    const bare = await startProdServer({ LOG_LEVEL: 'error' })
    let tab: AdminTab | undefined
    try {
      tab = await openAdmin(browser, bare)
      await tab.page.getByText('Пароль владельца ещё не задан.').waitFor()
      await tab.page.getByText(/напечатана в консоли сервера при запуске/).waitFor()
      expect(await tab.page.getByLabel('Пароль').count()).toBe(0)
      expect(tab.errors()).toEqual([])
    } finally {
      // The tab goes first: its keep-alive sockets would hold the server's graceful stop for up to
      // the 5 s it promised them (server/main.ts).
      await tab?.context.close()
      await bare.stop()
      bare.cleanup()
    }
  })
})
