// The product editor's «Варианты» (docs/decisions/043-variants.md), in Chromium against the production
// build on a phone (390×844) and a desktop (1280×800), on SQLite: the demo tool box lists its three
// sizes; a fourth is added with its артикул, a price with kopecks, an old price, availability, its
// size and a picture (previewed before the save, uploaded with it), and the public product page
// offers it at once with its price and, when it is chosen, shows its picture; removing it asks first
// and takes it off the page. Nothing wider than the screen; axe finds nothing.
import { describe, expect, it } from 'vitest'
import { ADMIN_PATHS } from '../../src/site/paths'
import { pngImage } from '../api/helpers'
import { browserSuite } from '../helpers/browser-suite'
import { axeViolations, openSignedIn, startAdminServer } from './admin-helpers'

const SIZES = [
  { name: 'phone', width: 390, height: 844, colour: [0, 120, 200] as [number, number, number] },
  { name: 'desktop', width: 1280, height: 800, colour: [200, 90, 0] as [number, number, number] },
]
const URL = '/structure/hand-tools/tool-box'
const TITLE = '24", 610×300×260 мм'
/** Text as read: every kind of space (money's no-break ones) a plain one */
const plain = (text: string | null) =>
  (text ?? '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&quot;/g, '"')
    .replace(/\s+/g, ' ')

describe('the product editor’s variants', () => {
  const suite = browserSuite(() => startAdminServer())
  const publicPage = async (query = '') =>
    plain(
      await (
        await fetch(`${suite.server.url}${URL}${query}`, { headers: { 'user-agent': 'Mozilla/5.0 test' } })
      ).text(),
    )

  for (const size of SIZES) {
    it(`adds a size with a picture, which the product page shows for it; removing it asks first, at ${size.width}×${size.height}`, async () => {
      const viewport = { width: size.width, height: size.height }
      const { page, context, errors } = await openSignedIn(
        suite.browser,
        suite.server,
        `${ADMIN_PATHS.products}?q=${encodeURIComponent('Ящик для инструмента')}`,
        viewport,
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
      await form.getByLabel('Картинка варианта').setInputFiles({
        name: 'box-24.png',
        mimeType: 'image/png',
        buffer: await pngImage(48, 36, size.colour),
      })
      // The chosen file's preview, before anything is saved.
      await expect
        .poll(() => form.getByRole('img', { name: 'Сейчас: картинка варианта' }).getAttribute('src'))
        .toMatch(/^data:image\/png;base64,/)
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(size.width)
      await form.getByRole('button', { name: 'Добавить вариант' }).click()
      await part.getByText(`Вариант «${TITLE}» добавлен. Он уже на сайте.`).waitFor()
      const added = part.getByRole('form', { name: `Вариант «${TITLE}»` })
      await added.waitFor()
      expect(await added.getByLabel('Цена, ₽').inputValue()).toBe('2199,90')
      const stored = await added.getByRole('img', { name: 'Сейчас: картинка варианта' }).getAttribute('src')
      const hash = /\/media\/uploads\/([0-9a-f]{16})\.48x36\.png$/.exec(stored ?? '')?.[1]
      expect(hash, String(stored)).toBeDefined()
      expect(await part.getByRole('form').count()).toBe(4)

      const product = await publicPage()
      expect(product).toContain(TITLE)
      const variantId = new RegExp(`\\?v=(\\d+)">${TITLE}<`).exec(product)?.[1]
      expect(variantId).toBeDefined()
      expect(await publicPage(`?v=${variantId}`)).toContain('2 199,90 ₽')

      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(size.width)
      expect(await axeViolations(page, 'the editor’s variants')).toEqual([])

      // The visitor who chooses the size sees its picture, loaded, first on the page.
      const visitor = await context.newPage()
      await visitor.goto(`${suite.server.url}${URL}?v=${variantId}`)
      const picture = visitor.locator(`main img[src*="${hash}"], main img[srcset*="${hash}"]`).first()
      await picture.waitFor()
      expect(await picture.isVisible()).toBe(true)
      await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0)
      await visitor.close()

      await added.getByRole('button', { name: 'Удалить вариант' }).click()
      await added.getByText(`Удалить вариант «${TITLE}»?`, { exact: false }).waitFor()
      await added.getByRole('button', { name: 'Удалить', exact: true }).click()
      await part.getByText(`Вариант «${TITLE}» удалён`).waitFor()
      expect(await part.getByRole('form').count()).toBe(3)
      expect(await publicPage()).not.toContain(TITLE)
      expect(errors()).toEqual([])
      await context.close()
    })
  }
})
