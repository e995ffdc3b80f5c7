// The lead dialog in headless Chromium against the production build: opening, validation,
// submission, the dialog stack, failure handling, accessibility and the no-JS form.
import { SQLite as Database } from '../../server/data/sqlite-driver'
import type { BrowserContext, Page, Request } from 'playwright-core'
import { afterEach, describe, expect, it } from 'vitest'
import { waitForVike, watchErrors, wcagScan } from '../helpers/browser'
import { startProdServer } from '../helpers/prod-server'
import { browserSuite } from '../helpers/browser-suite'

const METRIKA_ID = 98765432

let context: BrowserContext
let page: Page
let errors: string[]

const suite = browserSuite(() =>
  // The fill-time trap is off here: a robot types faster than the 3 s a person needs.
  startProdServer({ LEAD_RATE_LIMIT: '0', LEAD_MIN_FILL_SECONDS: '0', METRIKA_ID: String(METRIKA_ID) }),
)
afterEach(async () => {
  await context?.close()
})

async function open(path = '/', options: { javaScriptEnabled?: boolean } = {}) {
  context = await suite.browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'ru-RU', ...options })
  // Metrika's tag.js is not fetched from Yandex here: the queue the counter snippet makes is enough.
  await context.route('https://mc.yandex.ru/**', (route) =>
    route.fulfill({ status: 200, contentType: 'text/javascript', body: '' }),
  )
  page = await context.newPage()
  errors = watchErrors(page)
  await page.goto(suite.server.url + path)
  if (options.javaScriptEnabled !== false) {
    await waitForVike(page, path)
    // The counter (and so the goal) exists only after the visitor allowed analytics
    // (docs/decisions/027-personal-data.md; test/e2e/cookie-consent.test.ts covers the notice).
    await page
      .getByRole('region', { name: 'Мы используем файлы cookie' })
      .getByRole('button', { name: 'Принять' })
      .click()
  }
}

function leadRow(email: string) {
  const db = new Database(suite.server.dbPath, { readonly: true })
  try {
    return db.prepare('select * from feedback where email = ?').get(email) as Record<string, unknown> | undefined
  } finally {
    db.close()
  }
}

const dialogs = () => page.locator('[role="dialog"]')
const leadDialog = () => page.getByRole('dialog', { name: 'Оставить заявку' })
const headerButton = () => page.locator('header').getByRole('button', { name: 'Оставить заявку' })
const footerButton = () => page.locator('footer').getByRole('button', { name: 'Оставить заявку' })

async function openFromHeader() {
  await headerButton().click()
  // The form's code loads on first use (it brings ajv and the mask), so wait for the form itself.
  await leadDialog().getByLabel('Ваше имя').waitFor()
}

async function fillValid(email: string) {
  const dialog = leadDialog()
  await dialog.getByLabel('Ваше имя').fill('Анна Сергеевна')
  await dialog.getByLabel('Ваш телефон').fill('8 999 123-45-67')
  await dialog.getByLabel('Ваш E-mail').fill(email)
  await dialog.getByRole('checkbox', { name: 'Я даю согласие на обработку персональных данных' }).check()
}

/** The Metrika goals reached so far, from the queue of the counter snippet. */
const goals = () =>
  page.evaluate(() =>
    ((window as any).ym?.a ?? [])
      .map((args: unknown[]) => Array.from(args))
      .filter((args: unknown[]) => args[1] === 'reachGoal'),
  )

const focusedText = () => page.evaluate(() => document.activeElement?.textContent ?? null)
const focusedInsideDialog = () => page.evaluate(() => Boolean(document.activeElement?.closest('[role="dialog"]')))

describe('the lead dialog', () => {
  it('opens from the header as a labelled modal dialog, locks the page and returns focus on close', async () => {
    await open('/')
    // Once interactive, assistive technology hears a button that opens a dialog.
    expect(await headerButton().getAttribute('aria-haspopup')).toBe('dialog')
    expect(await page.locator('header').getByRole('link', { name: 'Оставить заявку' }).count()).toBe(0)
    await openFromHeader()
    const dialog = leadDialog()
    expect(await dialog.getAttribute('aria-modal')).toBe('true')
    expect(await dialog.getByRole('button', { name: 'Отправить' }).isVisible()).toBe(true)
    expect(await dialog.getByLabel('Ваш телефон').getAttribute('type')).toBe('tel')
    expect(await dialog.getByRole('checkbox').isChecked()).toBe(false)
    expect(await page.evaluate(() => document.body.style.overflow)).toBe('hidden')
    expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('username')
    const width = await dialog.evaluate((el) => el.getBoundingClientRect().width)
    expect(width).toBeLessThanOrEqual(480)
    expect(page.url()).toBe(suite.server.url + '/')

    await dialog.getByRole('button', { name: 'Закрыть' }).click()
    await expect.poll(() => dialogs().count()).toBe(0)
    expect(await page.evaluate(() => document.body.style.overflow)).toBe('')
    expect(await page.evaluate(() => document.activeElement?.closest('header') !== null)).toBe(true)
    expect(await focusedText()).toBe('Оставить заявку')
    expect(errors).toEqual([])
  })

  it('opens from the footer and from a product page', async () => {
    await open('/')
    await footerButton().click()
    await leadDialog().waitFor()
    await page.keyboard.press('Escape')
    await expect.poll(() => dialogs().count()).toBe(0)
    expect(await page.evaluate(() => document.activeElement?.closest('footer') !== null)).toBe(true)

    await page.goto(suite.server.url + '/structure/product')
    await waitForVike(page, '/structure/product')
    await page.locator('main').getByRole('button', { name: 'Оставить заявку' }).click()
    await leadDialog().getByLabel('Ваше имя').waitFor()
    expect(errors).toEqual([])
  })

  it('works from the keyboard alone and keeps Tab inside the dialog', async () => {
    await open('/')
    await headerButton().focus()
    await page.keyboard.press('Enter')
    await leadDialog().waitFor()
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press('Tab')
      expect(await focusedInsideDialog()).toBe(true)
    }
    for (let i = 0; i < 4; i++) {
      await page.keyboard.press('Shift+Tab')
      expect(await focusedInsideDialog()).toBe(true)
    }
    await page.keyboard.press('Escape')
    await expect.poll(() => dialogs().count()).toBe(0)
    expect(await focusedText()).toBe('Оставить заявку')
  })

  it('shows every «Поле обязательно» on an empty submit without calling the server, then fixes them live', async () => {
    await open('/')
    const requests: Request[] = []
    page.on('request', (request) => {
      if (request.url().includes('/api/feedback')) requests.push(request)
    })
    await openFromHeader()
    const dialog = leadDialog()
    const required = dialog.getByText('Поле обязательно', { exact: true })
    expect(await required.count()).toBe(0)
    await dialog.getByRole('button', { name: 'Отправить' }).click()
    await expect.poll(() => required.count()).toBe(4)
    expect(await dialog.getByLabel('Ваше имя').getAttribute('aria-invalid')).toBe('true')
    expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('username')

    await dialog.getByLabel('Ваше имя').pressSequentially('Анна')
    await expect.poll(() => required.count()).toBe(3)
    expect(await dialog.getByLabel('Ваше имя').getAttribute('aria-invalid')).toBeNull()
    await dialog.getByLabel('Ваш E-mail').pressSequentially('anna@')
    expect(await dialog.getByText('Некорректный адрес электронной почты').count()).toBe(1)
    await dialog.getByLabel('Ваш E-mail').pressSequentially('example.ru')
    await expect.poll(() => required.count()).toBe(2)
    expect(await dialog.getByText('Некорректный адрес электронной почты').count()).toBe(0)
    await dialog.getByRole('button', { name: 'Отправить' }).click()
    // The submit handler ends by focusing the first field still wrong; a request would have gone first.
    await page.waitForFunction(() => document.activeElement?.getAttribute('name') === 'phone')
    expect(requests).toEqual([])
  })

  it('sends a valid lead once, shows «Заявка отправлена», and the lead is in the database', async () => {
    await open('/')
    const requests: Request[] = []
    page.on('request', (request) => {
      if (request.url().includes('/api/feedback')) requests.push(request)
    })
    await openFromHeader()
    const email = `anna.${Date.now()}@example.ru`
    await fillValid(email)
    expect(await leadDialog().getByLabel('Ваш телефон').inputValue()).toBe('+7 (999) 123-45-67')
    await leadDialog().getByRole('button', { name: 'Отправить' }).click()
    const sent = page.getByRole('dialog', { name: 'Заявка отправлена' })
    await sent.waitFor()
    expect(
      await sent
        .getByText('Спасибо за заявку! Мы свяжемся с вами в ближайшее время, чтобы уточнить детали.')
        .isVisible(),
    ).toBe(true)
    expect(requests).toHaveLength(1)
    expect(requests[0].headers()['idempotency-key']).toMatch(/^[!-~]{8,128}$/)
    expect(JSON.parse(requests[0].postData()!)).toMatchObject({
      username: 'Анна Сергеевна',
      phone: '+7 (999) 123-45-67',
      email,
      consent: true,
      website: '',
    })
    expect(leadRow(email)).toMatchObject({
      username: 'Анна Сергеевна',
      phone: '+7 (999) 123-45-67',
      phoneE164: '+79991234567',
      spam: 0,
    })
    expect(await goals()).toEqual([[METRIKA_ID, 'reachGoal', 'lead']])
    expect(errors).toEqual([])
  })

  it('keeps what was typed when the dialog closes or the page reloads, until the lead is sent', async () => {
    await open('/')
    await openFromHeader()
    await leadDialog().getByLabel('Ваше имя').fill('Мария')
    await leadDialog().getByLabel('Ваш телефон').fill('8 999 765-43-21')
    await page.keyboard.press('Escape')
    await expect.poll(() => dialogs().count()).toBe(0)
    await openFromHeader()
    expect(await leadDialog().getByLabel('Ваше имя').inputValue()).toBe('Мария')
    expect(await leadDialog().getByLabel('Ваш телефон').inputValue()).toBe('+7 (999) 765-43-21')

    await page.reload()
    await waitForVike(page, '/')
    await openFromHeader()
    expect(await leadDialog().getByLabel('Ваше имя').inputValue()).toBe('Мария')
    const email = `maria.${Date.now()}@example.ru`
    await leadDialog().getByLabel('Ваш E-mail').fill(email)
    await leadDialog().getByRole('checkbox', { name: 'Я даю согласие на обработку персональных данных' }).check()
    await leadDialog().getByRole('button', { name: 'Отправить' }).click()
    await page.getByRole('dialog', { name: 'Заявка отправлена' }).waitFor()
    expect(leadRow(email)).toMatchObject({ username: 'Мария', phoneE164: '+79997654321' })

    // Sent: the next dialog starts empty.
    await page.keyboard.press('Escape')
    await expect.poll(() => dialogs().count()).toBe(0)
    await openFromHeader()
    expect(await leadDialog().getByLabel('Ваше имя').inputValue()).toBe('')
    expect(errors).toEqual([])
  })

  it('closes only the top of two stacked dialogs with Escape, the backdrop and the close button', async () => {
    await open('/')
    await openFromHeader()
    await leadDialog().getByLabel('Ваше имя').fill('Пётр')
    const consentLink = leadDialog().getByRole('link', { name: 'обработку персональных данных' })
    const consentDialog = page.getByRole('dialog', { name: 'Согласие на обработку персональных данных' })

    const closeTopBy = async (how: () => Promise<void>) => {
      await consentLink.click()
      await consentDialog.waitFor()
      await consentDialog.getByText('своей волей').waitFor()
      expect(await dialogs().count()).toBe(2)
      await how()
      await expect.poll(() => dialogs().count()).toBe(1)
      expect(await leadDialog().isVisible()).toBe(true)
      expect(await leadDialog().getByLabel('Ваше имя').inputValue()).toBe('Пётр')
      expect(await focusedText()).toBe('обработку персональных данных')
    }
    await closeTopBy(() => page.keyboard.press('Escape'))
    await closeTopBy(() => page.mouse.click(8, 8))
    await closeTopBy(() => consentDialog.getByRole('button', { name: 'Закрыть' }).click())
    expect(page.url()).toBe(suite.server.url + '/')
    expect(errors).toEqual([])
  })

  it('formats a phone typed key by key, taking a habitual leading 8 for the trunk prefix', async () => {
    await open('/')
    await openFromHeader()
    const phone = leadDialog().getByLabel('Ваш телефон')
    await phone.pressSequentially('89991234567', { delay: 20 })
    expect(await phone.inputValue()).toBe('+7 (999) 123-45-67')
    await phone.fill('')
    await phone.pressSequentially('8123456789', { delay: 20 })
    expect(await phone.inputValue()).toBe('+7 (812) 345-67-89')
  })

  it('refuses an incomplete phone with the Russian message and sends nothing', async () => {
    await open('/')
    const requests: Request[] = []
    page.on('request', (request) => {
      if (request.url().includes('/api/feedback')) requests.push(request)
    })
    await openFromHeader()
    const dialog = leadDialog()
    await dialog.getByLabel('Ваше имя').fill('Анна')
    await dialog.getByLabel('Ваш E-mail').fill('anna@example.ru')
    await dialog.getByLabel('Я даю согласие на обработку персональных данных').check()
    await dialog.getByLabel('Ваш телефон').pressSequentially('912345678', { delay: 20 })
    await dialog.getByRole('button', { name: 'Отправить' }).click()
    const message = dialog.getByText(
      'Номер телефона неполный: для России нужно 11 цифр, для других стран — от 10 до 15',
    )
    await expect.poll(() => message.count()).toBe(1)
    expect(await dialog.getByLabel('Ваш телефон').getAttribute('aria-invalid')).toBe('true')
    await dialog.getByLabel('Ваш телефон').pressSequentially('9', { delay: 20 })
    await expect.poll(() => message.count()).toBe(0)
    expect(requests).toEqual([])
  })

  it('keeps every digit a fast typist enters while the page is busy', async () => {
    await open('/')
    await openFromHeader()
    const phone = leadDialog().getByLabel('Ваш телефон')
    await phone.focus()
    // A long task holds the main thread while the keys arrive: they are handled back to back, with
    // no timer in between (a mask that learns the selection from a timer drops some of them).
    const busy = page.evaluate(() => {
      const end = Date.now() + 400
      while (Date.now() < end);
    })
    await page.keyboard.type('9161234567')
    await busy
    await expect.poll(() => phone.inputValue()).toBe('+7 (916) 123-45-67')
  })

  it('fades in and out over 300 ms', async () => {
    await open('/')
    await openFromHeader()
    const layer = page.locator('.modal').first()
    expect(await layer.evaluate((el) => getComputedStyle(el).transitionDuration)).toBe('0.3s')
    await leadDialog().getByRole('button', { name: 'Закрыть' }).click()
    expect(await layer.getAttribute('data-phase')).toBe('closing')
    expect(await dialogs().count()).toBe(1)
    await expect.poll(() => dialogs().count()).toBe(0)
  })

  it('keeps every value and offers the phone when the server answers 503', async () => {
    await open('/')
    await page.route('**/api/feedback', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ error: { code: 'unavailable', message: 'Сервис временно недоступен' } }),
      }),
    )
    await openFromHeader()
    const email = `fail.${Date.now()}@example.ru`
    await fillValid(email)
    await leadDialog().getByRole('button', { name: 'Отправить' }).click()
    const alert = leadDialog().getByRole('alert')
    await alert.waitFor()
    expect(await alert.textContent()).toContain('Не удалось отправить заявку. Попробуйте ещё раз или позвоните нам')
    expect(await alert.getByRole('link').getAttribute('href')).toBe('tel:+74951234567')
    const dialog = leadDialog()
    expect(await dialog.getByLabel('Ваше имя').inputValue()).toBe('Анна Сергеевна')
    expect(await dialog.getByLabel('Ваш телефон').inputValue()).toBe('+7 (999) 123-45-67')
    expect(await dialog.getByLabel('Ваш E-mail').inputValue()).toBe(email)
    expect(await dialog.getByRole('checkbox').isChecked()).toBe(true)
    expect(await dialog.getByRole('button', { name: 'Отправить' }).isEnabled()).toBe(true)

    expect(await goals()).toEqual([])

    // The same form retried once the server is back: stored once.
    await page.unroute('**/api/feedback')
    await dialog.getByRole('button', { name: 'Отправить' }).click()
    await page.getByRole('dialog', { name: 'Заявка отправлена' }).waitFor()
    expect(leadRow(email)).toBeDefined()
    expect(await goals()).toEqual([[METRIKA_ID, 'reachGoal', 'lead']])
  })

  it('sends edited values as a new lead after a lost answer, instead of taking them for a repeat', async () => {
    await open('/')
    // The first lead reaches the server and is stored, but its answer is lost on the way back.
    let lost = false
    await page.route('**/api/feedback', async (route) => {
      if (lost) return route.continue()
      lost = true
      await route.fetch()
      await route.fulfill({ status: 503, contentType: 'application/json', body: '{"error":{}}' })
    })
    await openFromHeader()
    const first = `lost.${Date.now()}@example.ru`
    const edited = `edited.${Date.now()}@example.ru`
    await fillValid(first)
    await leadDialog().getByRole('button', { name: 'Отправить' }).click()
    await leadDialog().getByRole('alert').waitFor()
    // The visitor corrects the e-mail and sends again: the form's key came with other values.
    await leadDialog().getByLabel('Ваш E-mail').fill(edited)
    await leadDialog().getByRole('button', { name: 'Отправить' }).click()
    await leadDialog()
      .getByRole('alert')
      .getByText('Эта форма уже была отправлена с другими данными. Проверьте поля и отправьте заявку ещё раз')
      .waitFor()
    await leadDialog().getByRole('button', { name: 'Отправить' }).click()
    await page.getByRole('dialog', { name: 'Заявка отправлена' }).waitFor()
    expect(leadRow(first)).toBeDefined()
    expect(leadRow(edited)).toBeDefined()
  })

  it('has no serious or critical axe-core violations in the open dialog, with and without errors', async () => {
    await open('/')
    await openFromHeader()
    const check = async () => {
      // wcagScan waits for the fade-in, so colours are measured at full opacity.
      const result = await wcagScan(page, '[role="dialog"]')
      return result.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${v.id}: ${v.help}`)
    }
    expect(await check()).toEqual([])
    await leadDialog().getByRole('button', { name: 'Отправить' }).click()
    await leadDialog().getByText('Поле обязательно').first().waitFor()
    expect(await check()).toEqual([])
  })
})

describe('the form page with JavaScript', () => {
  it('checks the fields in the browser and sends the lead as JSON, staying on the page', async () => {
    await open('/zayavka')
    const posts: string[] = []
    page.on('request', (request) => {
      if (request.url().endsWith('/api/feedback')) posts.push(request.headers()['content-type'] ?? '')
    })
    // The page's form is an island: an empty submit is answered in the browser.
    await page.getByRole('button', { name: 'Отправить' }).click()
    await page.getByText('Поле обязательно').first().waitFor()
    expect(posts).toEqual([])
    const email = `page.${Date.now()}@example.ru`
    await page.getByLabel('Ваше имя').fill('Вера')
    await page.getByLabel('Ваш телефон').fill('9165554433')
    await page.getByLabel('Ваш E-mail').fill(email)
    await page.getByRole('checkbox', { name: 'Я даю согласие на обработку персональных данных' }).check()
    await page.getByRole('button', { name: 'Отправить' }).click()
    await page.getByRole('heading', { name: 'Заявка отправлена' }).waitFor()
    expect(new URL(page.url()).pathname).toBe('/zayavka')
    expect(posts).toEqual([expect.stringContaining('application/json')])
    expect(leadRow(email)).toMatchObject({ username: 'Вера', phoneE164: '+79165554433' })
    expect(errors).toEqual([])
  })
})

describe('the lead form without JavaScript', () => {
  it('leads from the header button to the form page, posts urlencoded and lands on the thank-you page', async () => {
    await open('/', { javaScriptEnabled: false })
    // Without JavaScript the control is a link to the form page.
    await page.locator('header').getByRole('link', { name: 'Оставить заявку' }).click()
    await page.waitForURL('**/zayavka')
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Оставить заявку')
    const email = `nojs.${Date.now()}@example.ru`
    await page.getByLabel('Ваше имя').fill('Олег')
    await page.getByLabel('Ваш телефон').fill('+7 (916) 555-44-33')
    await page.getByLabel('Ваш E-mail').fill(email)
    await page.getByRole('checkbox', { name: 'Я даю согласие на обработку персональных данных' }).check()
    const statuses: number[] = []
    page.on('response', (response) => {
      if (response.url().endsWith('/api/feedback')) statuses.push(response.status())
    })
    await page.getByRole('button', { name: 'Отправить' }).click()
    await page.waitForURL('**/spasibo')
    expect(statuses).toEqual([303])
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Заявка отправлена')
    expect(leadRow(email)).toMatchObject({ username: 'Олег', phoneE164: '+79165554433', spam: 0 })
  })

  it('shows the messages on the form page again, keeping what was typed', async () => {
    await open('/zayavka', { javaScriptEnabled: false })
    await page.getByLabel('Ваше имя').fill('Олег')
    await page.getByRole('button', { name: 'Отправить' }).click()
    await page.getByText('Поле обязательно').first().waitFor()
    expect(await page.getByText('Поле обязательно', { exact: true }).count()).toBe(3)
    expect(await page.getByLabel('Ваше имя').inputValue()).toBe('Олег')
    expect(page.url()).not.toContain('%D0%9E') // nothing typed travels in the address
  })
})
