// The screens an owner uses every day (issue 45, item 4), in Chromium against the production build,
// at 1366×900 and 390×844: «Товары» with its caption, every артикул, price and state on one line, the sections
// in the tree's order and a price saved by Tab and by leaving the cell (Escape cancels); the inbox
// card with the product and the page as links and a manager's note kept across a reload; the public
// pages with the menu open never scrolling sideways, card titles hyphenated rather than cut, the
// product's description clear of the buttons above it. The workbook's layout is checked without a
// browser (test/catalogue/price-export-sheet.test.ts).
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { formatMoney } from '../../src/format/money'
import { ADMIN_API_PATHS, ADMIN_PATHS } from '../../src/site/paths'
import { browserSuite, type BrowserSuite } from '../helpers/browser-suite'
import { NOT_KEPT_ALIVE } from '../helpers/prod-server'
import { createTestSchema, TEST_DATABASE_URL, type TestSchema } from '../helpers/postgres'
import { ADMIN_SECRET, openSignedIn, startAdminServer } from './admin-helpers'

const SIZES = [
  { name: 'desktop', width: 1366, height: 900 },
  { name: 'phone', width: 390, height: 844 },
]
const bearer = { authorization: `Bearer ${ADMIN_SECRET}` }
const DIALECTS = [
  { name: 'SQLite', available: true },
  { name: 'PostgreSQL', available: Boolean(TEST_DATABASE_URL) },
]

/** The server and Chromium of the database whose tests run now (set by each one's beforeAll). */
let suite: BrowserSuite

/**
 * The back office's screens on each database: one server per database for all of them (none needs a
 * fresh shop: «Товары» edits ЭИ-1003's price, the inbox reads ЭИ-1002 and its own new lead), `suite`
 * while their tests run.
 */
function onEachDatabase(screens: Record<string, () => void>) {
  for (const dialect of DIALECTS)
    describe.runIf(dialect.available)(`the back office every day on ${dialect.name}`, () => {
      let schema: TestSchema | undefined
      // Registered first, so it runs last: the schema goes after its server has stopped.
      afterAll(async () => {
        await schema?.drop()
      })
      const own = browserSuite(async () => {
        schema = dialect.name === 'PostgreSQL' ? await createTestSchema() : undefined
        return startAdminServer(schema ? { DATABASE_URL: schema.url } : {})
      })
      beforeAll(() => {
        suite = own
      })
      for (const [title, body] of Object.entries(screens)) describe(title, body)
    })
}

const sidewaysScroll = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)

/** Cells whose text takes more than one line or overflows its box. */
const brokenCells = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('.products__table td.products__nowrap')].flatMap((cell) => {
      const tops = new Set<number>()
      const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT)
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (node.parentElement?.closest('select, [role="status"]')) continue
        const range = document.createRange()
        range.selectNodeContents(node)
        for (const rect of range.getClientRects()) if (rect.width > 0) tops.add(Math.round(rect.top))
      }
      const box = cell.querySelector<HTMLElement>('.products__edit') ?? cell
      const over = box.scrollWidth > box.clientWidth + 1
      return tops.size > 1 || over ? [`${cell.dataset.label}: ${cell.textContent} (${tops.size} lines)`] : []
    }),
  )

async function api<T>(path: string, init: RequestInit = {}): Promise<T> {
  const res = await fetch(suite.server.url + path, {
    ...init,
    headers: { ...bearer, ...NOT_KEPT_ALIVE, ...init.headers },
  })
  expect(res.status, path).toBeLessThan(300)
  return (await res.json()) as T
}

function productsEveryDay() {
  for (const size of SIZES) {
    it(`keeps артикул, prices and states on one line and scrolls nothing sideways at ${size.width} px`, async () => {
      const { page, context, errors } = await openSignedIn(suite.browser, suite.server, ADMIN_PATHS.products, size)
      await page.locator('.products__table tbody tr').first().waitFor()
      expect(await brokenCells(page)).toEqual([])
      // The table's caption («Товары, 12») reads on one line, not a letter a line.
      const caption = page.locator('.products__table caption')
      const lineHeight = await caption.evaluate((el) => parseFloat(getComputedStyle(el).lineHeight) || 24)
      expect((await caption.boundingBox())!.height).toBeLessThan(lineHeight * 1.5 + 8)
      expect(await sidewaysScroll(page)).toBeLessThanOrEqual(0)
      // Every select shows whole inside the filters' panel.
      const cut = await page.evaluate(() =>
        [...document.querySelectorAll<HTMLSelectElement>('.products select')]
          .filter((select) => select.offsetParent !== null)
          .filter((select) => {
            const box = select.getBoundingClientRect()
            const panel = select.closest('.admin-panel, .products')!.getBoundingClientRect()
            return box.left < panel.left - 1 || box.right > panel.right + 1
          })
          .map((select) => select.getAttribute('aria-label')),
      )
      expect(cut).toEqual([])
      expect(errors()).toEqual([])
      await context.close()
    })
  }

  it('lists the sections as the content tree does, children under their parent, indented', async () => {
    const { data } = await api<{ data: { id: number; parentId: number | null; depth: number }[] }>(
      ADMIN_API_PATHS.productSections,
    )
    const seen = new Map<number, number>()
    data.forEach((section, index) => {
      if (section.depth > 0) {
        expect(seen.get(section.parentId!), `${section.id} after its parent`).toBe(section.depth - 1)
        // The rows between a parent and its child are the parent's own subtree.
        expect(data.slice(0, index).findLast((s) => s.depth < section.depth)?.id).toBe(section.parentId)
      }
      seen.set(section.id, section.depth)
    })
    expect(data.some((section) => section.depth > 0)).toBe(true)
    const { page, context } = await openSignedIn(suite.browser, suite.server, ADMIN_PATHS.products)
    const select = page.getByLabel('Раздел', { exact: true }).locator('option')
    // The sections come after the page: wait for all of them before reading.
    await select.nth(data.length).waitFor({ state: 'attached' })
    const options = await select.allTextContents()
    expect(options.slice(1).map((text) => text.length - text.trimStart().length)).toEqual(
      data.map((section) => section.depth * 3),
    )
    await context.close()
  })

  it('saves a price on Tab and on leaving the cell, says «Сохранено», and Escape cancels', async () => {
    // Below its old price (6 290 ₽), so each price is accepted.
    const { data } = await api<{ data: { id: number; title: string; article: string; price: number }[] }>(
      `${ADMIN_API_PATHS.products}?q=${encodeURIComponent('ЭИ-1003')}`,
    )
    const product = data[0]
    const { page, context, errors } = await openSignedIn(
      suite.browser,
      suite.server,
      `${ADMIN_PATHS.products}?q=${encodeURIComponent(product.article)}`,
    )
    page.setDefaultTimeout(10_000)
    const edit = page.getByRole('button', { name: `Цена «${product.title}»: изменить`, exact: true })
    const input = page.getByLabel(`Цена «${product.title}»`, { exact: true })
    const row = page.locator('.products__table tbody tr').first()

    await edit.click()
    await input.fill('3333')
    await page.keyboard.press('Tab')
    await row.getByRole('status').filter({ hasText: 'Сохранено' }).waitFor()
    await edit.filter({ hasText: formatMoney(333300) }).waitFor()

    await edit.click()
    await input.fill('2222')
    await page.getByRole('heading', { name: 'Товары', level: 1 }).click()
    await edit.filter({ hasText: formatMoney(222200) }).waitFor()

    await edit.click()
    await input.fill('1')
    await page.keyboard.press('Escape')
    await edit.filter({ hasText: formatMoney(222200) }).waitFor()
    expect(await edit.evaluate((button) => button === document.activeElement)).toBe(true)

    await page.reload()
    await edit.filter({ hasText: formatMoney(222200) }).waitFor()
    const stored = await api<{ data: { price: number }[] }>(`${ADMIN_API_PATHS.products}?q=${product.article}`)
    expect(stored.data[0].price).toBe(2222)
    expect(errors()).toEqual([])
    await context.close()
  })
}

function inboxEveryDay() {
  it('shows what was asked for as links and keeps the manager’s note across a reload', async () => {
    const { data: products } = await api<{ data: { id: number; title: string; urlFull: string }[] }>(
      `${ADMIN_API_PATHS.products}?q=${encodeURIComponent('ЭИ-1002')}`,
    )
    const res = await fetch(`${suite.server.url}/api/feedback`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...NOT_KEPT_ALIVE },
      body: JSON.stringify({
        username: 'Заметкин Пётр',
        phone: '+7 916 555-44-33',
        email: 'note@example.ru',
        consent: true,
        sourceUrl: `${products[0].urlFull}?utm_source=yandex`,
      }),
    })
    expect(res.status, await res.clone().text()).toBe(201)

    for (const size of SIZES) {
      const { page, context, errors } = await openSignedIn(suite.browser, suite.server, '/admin', size)
      const card = page.locator('article').filter({ hasText: 'Заметкин Пётр' })
      await card.waitFor()
      expect(await card.getByRole('link', { name: products[0].title }).getAttribute('href')).toBe(
        ADMIN_PATHS.record(products[0].id),
      )
      await card.getByRole('link', { name: `${products[0].urlFull}?utm_source=yandex` }).waitFor()
      const note = card.getByLabel('Заметка менеджера')
      const text = `Перезвонить в ${size.width}`
      await note.fill(text)
      await card.getByRole('button', { name: 'Сохранить заметку' }).click()
      await card.getByRole('status').filter({ hasText: 'Заметка сохранена' }).waitFor()
      await page.reload()
      await card.waitFor()
      expect(await card.getByLabel('Заметка менеджера').inputValue()).toBe(text)
      expect(await sidewaysScroll(page)).toBeLessThanOrEqual(0)
      expect(errors()).toEqual([])
      await context.close()
    }
  })
}

onEachDatabase({ '«Товары»': productsEveryDay, 'the inbox': inboxEveryDay })

describe('the public site on a phone', () => {
  const own = browserSuite(() => startAdminServer())
  beforeAll(() => {
    suite = own
  })

  it('never scrolls sideways with the menu open, hyphenates card titles, spaces the description', async () => {
    const context = await suite.browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'ru-RU' })
    const page = await context.newPage()
    await page.goto(`${suite.server.url}/structure/power-tools/`)
    const productUrl = await page.locator('.card__link').first().getAttribute('href')
    for (const path of ['/', '/structure/', '/structure/power-tools/', productUrl!]) {
      await page.goto(suite.server.url + path)
      await page.locator('.nav__toggle').click()
      await page.locator('.nav__list').waitFor()
      expect(await sidewaysScroll(page), path).toBeLessThanOrEqual(0)
    }
    await page.goto(`${suite.server.url}/structure/power-tools/`)
    expect(await page.locator('html').getAttribute('lang')).toBe('ru')
    const title = await page
      .locator('.card__title')
      .first()
      .evaluate((el) => {
        const style = getComputedStyle(el)
        return { hyphens: style.hyphens, wrap: style.overflowWrap, breaks: style.wordBreak }
      })
    expect(title).toEqual({ hyphens: 'auto', wrap: 'break-word', breaks: 'normal' })

    await page.goto(suite.server.url + productUrl!)
    const gap = await page.locator('.product__description').evaluate((description) => {
      const above = description.previousElementSibling!.getBoundingClientRect()
      return description.getBoundingClientRect().top - above.bottom
    })
    expect(gap).toBeGreaterThanOrEqual(16)
    await context.close()
  })
})
