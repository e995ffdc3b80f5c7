// A section pages, sorts and filters in Chromium, with JavaScript and without: the demo's «Крепёж»
// (30 products: two pages). Links and the GET form load the page they name; nothing is skipped as
// a "query-only" change, since the page reads these parameters (docs/decisions/031-sections-and-scale.md).
import type { Page } from 'playwright-core'
import { afterEach, describe, expect, it } from 'vitest'
import { watchErrors } from '../helpers/browser'
import { browserSuite } from '../helpers/browser-suite'

const SECTION = '/structure/krepezh/'

let page: Page

const suite = browserSuite()
afterEach(async () => {
  await page?.context().close()
})

async function open(javaScriptEnabled: boolean) {
  const context = await suite.browser.newContext({
    viewport: { width: 1280, height: 800 },
    locale: 'ru-RU',
    javaScriptEnabled,
  })
  page = await context.newPage()
  const errors = watchErrors(page)
  await page.goto(suite.server.url + SECTION)
  return errors
}

const titles = () => page.locator('.card__title').allTextContents()
const prices = async () =>
  // «329,90 ₽» → 329.9: the demo's fasteners include prices with kopecks.
  (await page.locator('.card__price').allTextContents()).map((text) =>
    Number(text.replace(/[^\d,]/g, '').replace(',', '.')),
  )

describe.each([
  ['with JavaScript', true],
  ['without JavaScript', false],
])('a section in a browser %s', (_label, javaScriptEnabled) => {
  it('pages forward and back through its products by the numbered links', async () => {
    const errors = await open(javaScriptEnabled)
    const first = await titles()
    expect(first).toHaveLength(24)
    await page.getByRole('navigation', { name: 'Страницы' }).getByRole('link', { name: 'Вперёд' }).click()
    await page.waitForURL(`**${SECTION}?page=2`)
    const second = await titles()
    expect(second).toHaveLength(6)
    expect(second.filter((t) => first.includes(t))).toEqual([])
    await expect(page.locator('link[rel="canonical"]').getAttribute('href')).resolves.toMatch(/\?page=2$/)
    await page.getByRole('link', { name: 'Страница 1' }).click()
    await page.waitForURL((url) => url.pathname === SECTION && url.search === '')
    expect(await titles()).toEqual(first)
    expect(errors).toEqual([])
  })

  it('sorts by price and by name through its links', async () => {
    await open(javaScriptEnabled)
    await page.getByRole('navigation', { name: 'Сортировка' }).getByRole('link', { name: 'По цене ↑' }).click()
    await page.waitForURL(`**${SECTION}?sort=price`)
    const ascending = await prices()
    expect(ascending).toEqual([...ascending].sort((a, b) => a - b))
    expect(ascending[0]).toBe(120) // the cheapest of the 30
    await page.getByRole('link', { name: 'По цене ↓' }).click()
    await page.waitForURL(`**${SECTION}?sort=price-desc`)
    expect((await prices())[0]).toBe(2490)
    await page.getByRole('link', { name: 'По названию' }).click()
    await page.waitForURL(`**${SECTION}?sort=name`)
    const names = await titles()
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)))
  })

  it('filters by availability and price range through its form, keeping the order chosen', async () => {
    await open(javaScriptEnabled)
    await page.getByRole('link', { name: 'По цене ↑' }).click()
    await page.waitForURL(`**${SECTION}?sort=price`)
    const form = page.getByRole('form', { name: 'Отбор товаров' })
    await form.getByLabel('Наличие').selectOption({ label: 'В наличии' })
    await form.getByLabel('Цена от, ₽').fill('300')
    await form.getByLabel('до, ₽').fill('700')
    await form.getByRole('button', { name: 'Показать' }).click()
    // The form's own spelling (the page cache answers it as the canonical one) or the canonical one.
    await page.waitForURL((url) =>
      ['avail=in_stock', 'max=700', 'min=300', 'sort=price'].every((pair) => url.search.includes(pair)),
    )
    const shown = await prices()
    expect(shown.length).toBeGreaterThan(3)
    expect(shown.every((p) => p >= 300 && p <= 700)).toBe(true)
    expect(shown).toEqual([...shown].sort((a, b) => a - b))
    expect(await page.getByRole('status').textContent()).toBe(`Найдено товаров: ${shown.length}`)
    expect(await form.getByLabel('Цена от, ₽').inputValue()).toBe('300')
    await page.getByRole('link', { name: 'Сбросить' }).click()
    await page.waitForURL((url) => url.pathname === SECTION && url.search === '')
    expect(await titles()).toHaveLength(24)
  })
})
