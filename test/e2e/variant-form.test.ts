// The product editor's «Варианты» (docs/decisions/043-variants.md), in Chromium against the production
// build on a phone (390×844), on SQLite: the demo tool box lists its three sizes; a fourth is added
// with its артикул, a price with kopecks, an old price, availability and its size, and the public
// product page offers it at once with its price; removing it asks first and takes it off the page.
// Nothing wider than the screen; axe finds nothing.
import { describe, expect, it } from 'vitest'
import { ADMIN_PATHS } from '../../src/site/paths'
import { browserSuite } from '../helpers/browser-suite'
import { axeViolations, openSignedIn, startAdminServer } from './admin-helpers'

const PHONE = { width: 390, height: 844 }
const URL = '/structure/hand-tools/tool-box'
const TITLE = '24", 610×300×260 мм'
/** Text as read: every kind of space (money's no-break ones) a plain one */
const plain = (text: string | null) =>
  (text ?? '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&quot;/g, '"')
    .replace(/\s+/g, ' ')

describe('the product editor’s variants on a phone', () => {
  const suite = browserSuite(() => startAdminServer())
  const publicPage = async (query = '') =>
    plain(
      await (
        await fetch(`${suite.server.url}${URL}${query}`, { headers: { 'user-agent': 'Mozilla/5.0 test' } })
      ).text(),
    )

  it('adds a size in the editor and the product page offers it; removing it asks first', async () => {
    const { page, context, errors } = await openSignedIn(
      suite.browser,
      suite.server,
      `${ADMIN_PATHS.products}?q=${encodeURIComponent('Ящик для инструмента')}`,
      PHONE,
    )
    const row = page.locator('.products__table tbody tr').filter({ hasText: 'Ящик для инструмента' }).first()
    const href = await row.getByRole('link', { name: 'Ящик для инструмента' }).getAttribute('href')
    expect(await publicPage()).not.toContain(TITLE)
    await page.goto(`${suite.server.url}${href}`)
    const part = page.getByRole('region', { name: /Варианты/ })
    await part.getByRole('form', { name: 'Вариант «16", 410×220×180 мм»' }).waitFor()
    expect(await part.getByRole('form').count()).toBe(3)

    await part.getByRole('button', { name: 'Добавить вариант' }).click()
    const form = part.getByRole('form', { name: 'Новый вариант' })
    await form.getByLabel('Название варианта').fill(TITLE)
    await form.getByLabel('Артикул').fill('РИ-3006-24')
    await form.getByLabel('Цена, ₽').fill('2 199,90')
    await form.getByLabel('Цена до скидки, ₽').fill('2499')
    await form.getByLabel('Наличие').selectOption('on_order')
    await form.getByLabel('Размер').fill('24"')
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width)
    await form.getByRole('button', { name: 'Добавить вариант' }).click()
    await part.getByText(`Вариант «${TITLE}» добавлен. Он уже на сайте.`).waitFor()
    const added = part.getByRole('form', { name: `Вариант «${TITLE}»` })
    await added.waitFor()
    expect(await added.getByLabel('Цена, ₽').inputValue()).toBe('2199,90')
    expect(await part.getByRole('form').count()).toBe(4)

    const product = await publicPage()
    expect(product).toContain(TITLE)
    const variantId = new RegExp(`\\?v=(\\d+)">${TITLE}<`).exec(product)?.[1]
    expect(variantId).toBeDefined()
    const chosen = await publicPage(`?v=${variantId}`)
    expect(chosen).toContain('2 199,90 ₽')

    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width)
    expect(await axeViolations(page, 'the editor’s variants')).toEqual([])

    await added.getByRole('button', { name: 'Удалить вариант' }).click()
    await added.getByText(`Удалить вариант «${TITLE}»?`, { exact: false }).waitFor()
    await added.getByRole('button', { name: 'Удалить', exact: true }).click()
    await part.getByText(`Вариант «${TITLE}» удалён`).waitFor()
    expect(await part.getByRole('form').count()).toBe(3)
    expect(await publicPage()).not.toContain(TITLE)
    expect(errors()).toEqual([])
    await context.close()
  })
})
