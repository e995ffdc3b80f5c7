// A product's variants in «Товары» (docs/decisions/043-variants.md), in Chromium against the
// production build on a phone (390×844) and a desktop (1280×800), on SQLite: the demo tool box says
// «3 варианта» and that its price is its variants'; the button opens its sizes under it; a size's
// price edited in place with the keyboard is saved, the product's «от» follows at once, and so does
// its public page; the editor shows its price read-only with the reason and saves the rest. Nothing
// wider than the screen; axe finds nothing.
import { describe, expect, it } from 'vitest'
import { ADMIN_PATHS } from '../../src/site/paths'
import { browserSuite } from '../helpers/browser-suite'
import { NOT_KEPT_ALIVE } from '../helpers/prod-server'
import { axeViolations, openSignedIn, startAdminServer } from './admin-helpers'

/** Each size edits the small size's price below the last one, so the product's «от» follows it */
const SIZES = [
  { name: 'phone', width: 390, height: 844, was: '1 290', price: '990' },
  { name: 'desktop', width: 1280, height: 800, was: '990', price: '980' },
]
const SMALL = '16", 410×220×180 мм'
/** Text as read: every kind of space (money's no-break ones) a plain one */
const plain = (text: string | null) => (text ?? '').replace(/&nbsp;/g, ' ').replace(/\s+/g, ' ')

describe('«Товары» with a product’s variants', () => {
  const suite = browserSuite(() => startAdminServer())

  for (const size of SIZES) {
    it(`opens the sizes under the product and edits a size’s price in place; the product follows, at ${size.width}×${size.height}`, async () => {
      const viewport = { width: size.width, height: size.height }
      const { page, context, errors } = await openSignedIn(
        suite.browser,
        suite.server,
        `${ADMIN_PATHS.products}?q=${encodeURIComponent('Ящик для инструмента')}`,
        viewport,
      )
      const row = page.locator('.products__table tbody tr').filter({ hasText: 'Ящик для инструмента' }).first()
      await row.waitFor()
      await expect.poll(async () => plain(await row.textContent())).toContain(`от ${size.was} ₽`)
      expect(plain(await row.textContent())).toContain('Цена и наличие задаются у вариантов')
      // The product's own price is no field here: its variants set it.
      expect(await row.getByRole('button', { name: /Цена «Ящик для инструмента»: изменить/ }).count()).toBe(0)

      const toggle = row.getByRole('button', { name: /3 варианта/ })
      expect(await toggle.getAttribute('aria-expanded')).toBe('false')
      await toggle.click()
      expect(await toggle.getAttribute('aria-expanded')).toBe('true')
      const sizes = page.locator('.products__variant')
      expect(await sizes.count()).toBe(3)
      expect(plain(await sizes.first().textContent())).toContain('РИ-3006-16')

      await page.getByRole('button', { name: `Цена «Ящик для инструмента», ${SMALL}: изменить`, exact: true }).click()
      const input = page.getByLabel(`Цена «Ящик для инструмента», ${SMALL}`, { exact: true })
      await input.fill(size.price)
      await input.press('Enter')
      await expect.poll(async () => plain(await row.textContent())).toContain(`от ${size.price} ₽`)
      expect(plain(await sizes.first().textContent())).toContain(`${size.price} ₽`)
      // The sizes stay open after the list is read again.
      expect(await sizes.count()).toBe(3)

      const url = await row.getByRole('link', { name: 'Ящик для инструмента' }).getAttribute('href')
      expect(url).toMatch(/^\/admin\//)
      const publicPage = await (
        await fetch(`${suite.server.url}/structure/hand-tools/tool-box`, {
          headers: { 'user-agent': 'Mozilla/5.0 test', ...NOT_KEPT_ALIVE },
        })
      ).text()
      expect(plain(publicPage)).toContain(`от ${size.price} ₽`)

      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(size.width)
      expect(await axeViolations(page, `variants at ${size.width} px`)).toEqual([])

      // The editor shows the price its variants set read-only, with the reason, and saves the rest.
      await page.goto(`${suite.server.url}${url}`)
      const price = page.getByLabel('Цена, ₽ (самая низкая у вариантов)')
      await price.waitFor()
      expect(await price.getAttribute('readonly')).not.toBeNull()
      expect(plain(await price.inputValue())).toBe(size.price)
      expect(await page.getByText('Цена задаётся у вариантов: измените её в строке варианта').count()).toBe(2)
      await page.getByLabel('Описание товара').fill(`Прочный ящик (${size.name}).`)
      await page.getByRole('button', { name: 'Сохранить', exact: true }).click()
      await page.getByText('Сохранено. Изменения уже на сайте.').waitFor()
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(size.width)
      expect(await axeViolations(page, 'the editor of a product with variants')).toEqual([])
      expect(errors()).toEqual([])
      await context.close()
    })
  }
})
