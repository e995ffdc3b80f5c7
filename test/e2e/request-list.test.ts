// The request list in headless Chromium against the production build, at phone size (390×844),
// with and without JavaScript (docs/decisions/041-request-list.md): two products added with
// quantities, a reload, a quantity changed, a line removed, the list sent as one lead and the
// confirmation seen; the lead keeps its lines.
import type { BrowserContext, Page } from 'playwright-core'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { SQLite as Database } from '../../server/data/sqlite-driver'
import { waitForVike, watchErrors, wcagScan } from '../helpers/browser'
import { browserSuite } from '../helpers/browser-suite'
import { openSignedIn, startAdminServer } from './admin-helpers'
import { ADMIN_PATHS, PATHS } from '../../src/site/paths'

interface Product {
  id: number
  title: string
  urlFull: string
  /** The section whose first page shows its card */
  sectionUrl: string
}

let context: BrowserContext
let page: Page
let errors: string[]
let products: Product[]

const suite = browserSuite(() => startAdminServer())
afterEach(async () => {
  expect(errors).toEqual([])
  await context?.close()
})

function query<T>(sql: string, ...params: unknown[]): T[] {
  const db = new Database(suite.server.dbPath, { readonly: true })
  try {
    return db.prepare(sql).all(...params) as T[]
  } finally {
    db.close()
  }
}

beforeAll(() => {
  products = query<Product>(
    `select s.id, s.title, s.urlFull, parent.urlFull as sectionUrl from structure s
     join product p on p.structureId = s.id join structure parent on parent.id = s.parentId
     where s.published = 1 and p.price is not null order by s.id limit 2`,
  )
})

async function start(javaScriptEnabled: boolean) {
  context = await suite.browser.newContext({
    viewport: { width: 390, height: 844 },
    locale: 'ru-RU',
    javaScriptEnabled,
  })
  page = await context.newPage()
  page.setDefaultTimeout(8000)
  errors = watchErrors(page)
}

async function go(path: string, js: boolean) {
  await page.goto(suite.server.url + path)
  if (js) await waitForVike(page, path)
}

/** Clicks a button of a plain form and waits for the page it leads to. */
async function submit(button: ReturnType<Page['locator']>) {
  await Promise.all([page.waitForEvent('load'), button.click()])
}

const lines = () => page.locator('li.request-line')
const line = (title: string) => lines().filter({ hasText: title })

async function sendLead(email: string) {
  await page.getByLabel('Ваше имя').fill('Анна Сергеевна')
  await page.getByLabel('Ваш телефон').fill('8 999 123-45-67')
  await page.getByLabel('Ваш E-mail').fill(email)
  await page.getByRole('checkbox', { name: 'Я даю согласие на обработку персональных данных' }).check()
  await page.getByRole('button', { name: 'Отправить', exact: true }).click()
  await page.getByText('Заявка отправлена').first().waitFor()
}

function storedLines(email: string) {
  return query<{ productId: number; quantity: number; total: number | null }>(
    `select l.productId, l.quantity, f.total from feedback f join leadLine l on l.feedbackId = f.id
     where f.email = ? order by l.position`,
    email,
  )
}

describe('the request list at 390×844', () => {
  it(
    'works with JavaScript: added in place, counted in the header, kept over a reload, sent as one lead',
    { timeout: 60_000 },
    async () => {
      const [a, b] = products
      await start(true)
      await go(a.urlFull, true)
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
      // The product page's «Оставить заявку» names the product.
      await page.locator('.product__info').getByRole('button', { name: 'Оставить заявку' }).click()
      await page.getByRole('dialog', { name: 'Оставить заявку' }).getByText(`Товар: ${a.title}`).waitFor()
      await page.getByRole('button', { name: 'Закрыть' }).click()
      const add = page.locator('.add-to-list')
      await add.getByLabel('Количество').fill('2')
      await add.getByRole('button', { name: /^В заявку/ }).click()
      await add.getByText('Добавлено в заявку').waitFor()
      await expect.poll(() => page.locator('.header__list-count').textContent()).toBe('1')
      // A card's «В заявку» adds one, sent in place: the section stays, the counter follows.
      await go(b.sectionUrl, true)
      const card = page.locator('.card').filter({ has: page.getByRole('link', { name: b.title, exact: true }) })
      await card.getByRole('button', { name: 'В заявку' }).click()
      await card.getByRole('button', { name: 'Добавлено' }).waitFor()
      await expect.poll(() => page.locator('.header__list-count').textContent()).toBe('2')
      expect(new URL(page.url()).pathname).toBe(b.sectionUrl)
      await page.reload()
      await waitForVike(page, b.sectionUrl)
      await expect.poll(() => page.locator('.header__list-count').textContent()).toBe('2')
      await submit(page.locator('.header__list'))
      await waitForVike(page, PATHS.requestList)
      expect(await lines().count()).toBe(2)
      expect(await line(b.title).getByLabel('Количество').inputValue()).toBe('1')
      // Nothing wider than the phone, and nothing serious for assistive technology.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
      const { violations } = await wcagScan(page)
      expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([])
      await line(b.title).getByLabel('Количество').fill('4')
      await submit(line(b.title).getByRole('button', { name: 'Изменить' }))
      await waitForVike(page, PATHS.requestList)
      expect(await line(b.title).getByLabel('Количество').inputValue()).toBe('4')
      await submit(line(a.title).getByRole('button', { name: /^Удалить/ }))
      await waitForVike(page, PATHS.requestList)
      expect(await lines().count()).toBe(1)
      await sendLead('list-js@example.ru')
      expect(await lines().count()).toBe(0)
      await expect.poll(() => page.locator('.header__list-count').count()).toBe(0)
      expect(storedLines('list-js@example.ru')).toEqual([{ productId: b.id, quantity: 4, total: expect.any(Number) }])
    },
  )

  it('works without JavaScript: plain forms land on the list, which survives a reload and sends', async () => {
    const [a, b] = products
    await start(false)
    // «Оставить заявку» on a product page is the plain form naming the product.
    await go(a.urlFull, false)
    await submit(page.locator('.product__info').getByRole('link', { name: 'Оставить заявку' }))
    expect(new URL(page.url()).search).toBe(`?tovar=${a.id}`)
    await page.getByText(`Товар: ${a.title}`).waitFor()
    await go(a.urlFull, false)
    await page.locator('.add-to-list').getByLabel('Количество').fill('2')
    await submit(page.locator('.add-to-list').getByRole('button', { name: /^В заявку/ }))
    expect(new URL(page.url()).pathname).toBe(PATHS.requestList)
    expect(await line(a.title).getByLabel('Количество').inputValue()).toBe('2')
    // A card's «В заявку» posts and lands on the list too.
    await go(b.sectionUrl, false)
    const card = page.locator('.card').filter({ has: page.getByRole('link', { name: b.title, exact: true }) })
    await submit(card.getByRole('button', { name: 'В заявку' }))
    expect(new URL(page.url()).pathname).toBe(PATHS.requestList)
    await page.reload()
    expect(await lines().count()).toBe(2)
    await line(a.title).getByLabel('Количество').fill('5')
    await submit(line(a.title).getByRole('button', { name: 'Изменить' }))
    expect(await line(a.title).getByLabel('Количество').inputValue()).toBe('5')
    await submit(line(b.title).getByRole('button', { name: /^Удалить/ }))
    expect(await lines().count()).toBe(1)
    await page.getByText('Итого').waitFor()
    await sendLead('list-nojs@example.ru')
    expect(new URL(page.url()).pathname).toBe(PATHS.leadThanks)
    expect(storedLines('list-nojs@example.ru')).toEqual([{ productId: a.id, quantity: 5, total: expect.any(Number) }])
    await go(PATHS.requestList, false)
    await page.getByText('В заявке пока нет товаров').waitFor()
  })

  it('shows the sent lines in the inbox card: product links, quantities, sums and the total', async () => {
    const [a] = products
    const tab = await openSignedIn(suite.browser, suite.server, '/admin', { width: 390, height: 844 })
    context = tab.context // closed by afterEach
    const card = tab.page.locator('.lead-card').filter({ hasText: 'list-nojs@example.ru' })
    const table = card.getByRole('table', { name: 'Товары в заявке' })
    await table.waitFor()
    expect(await table.getByRole('link', { name: a.title }).getAttribute('href')).toBe(ADMIN_PATHS.record(a.id))
    expect(await table.getByRole('row').nth(1).textContent()).toContain('5')
    await table.getByText('Итого').waitFor()
    // Checked by afterEach: Chrome's logs of the 401 before sign-in aside.
    errors = tab.errors()
  })
})
