// Variants on one page in headless Chromium against the production build (docs/decisions/043-variants.md),
// at phone size (390×844) and on a desktop, with and without JavaScript: the demo tool box's sizes
// chosen by their links, the chosen size's price and availability shown, and «В заявку» sending that
// size to the request list, whose line names it.
import type { BrowserContext, Page } from 'playwright-core'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { SQLite as Database } from '../../server/data/sqlite-driver'
import { waitForVike, watchErrors } from '../helpers/browser'
import { browserSuite } from '../helpers/browser-suite'
import { PATHS } from '../../src/site/paths'

let context: BrowserContext
let page: Page
let errors: string[]
let url: string

const suite = browserSuite()
afterEach(async () => {
  expect(errors).toEqual([])
  await context?.close()
})

beforeAll(() => {
  const db = new Database(suite.server.dbPath, { readonly: true })
  try {
    url = (
      db.prepare(`select urlFull from structure where title = 'Ящик для инструмента'`).get() as { urlFull: string }
    ).urlFull
  } finally {
    db.close()
  }
})

async function start(width: number, height: number, javaScriptEnabled: boolean) {
  context = await suite.browser.newContext({ viewport: { width, height }, locale: 'ru-RU', javaScriptEnabled })
  page = await context.newPage()
  page.setDefaultTimeout(8000)
  errors = watchErrors(page)
}

/** An element's text with the money's narrow and no-break spaces as plain ones. */
const textOf = async (selector: string) =>
  ((await page.locator(selector).first().textContent()) ?? '').replace(/[\u00a0\u202f]/g, ' ')

const SIZES = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 900 },
]

for (const size of SIZES) {
  for (const js of [true, false]) {
    describe(`a product's variants on a ${size.name}, ${js ? 'with' : 'without'} JavaScript`, () => {
      it(
        'chooses a size by its link, shows its price and availability, and sends it to the list',
        { timeout: 60_000 },
        async () => {
          await start(size.width, size.height, js)
          await page.goto(suite.server.url + url)
          if (js) await waitForVike(page, url)
          await expect.poll(() => textOf('.product__price')).toContain('от 1 290')
          expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(size.width)
          await page.locator('.variants').getByRole('link', { name: /^22"/ }).click()
          await page.waitForURL(/\?v=\d+$/)
          await expect.poll(() => textOf('.product__price')).toContain('1 990')
          await expect.poll(() => page.locator('.product__availability').textContent()).toBe('Под заказ')
          expect(await page.locator('.variants [aria-current="true"]').textContent()).toMatch(/^22"/)
          const add = page.locator('.add-to-list')
          if (js) {
            await add.getByRole('button', { name: /^В заявку/ }).click()
            await add.getByText('Добавлено в заявку').waitFor()
            await page.goto(suite.server.url + PATHS.requestList)
          } else {
            await Promise.all([page.waitForEvent('load'), add.getByRole('button', { name: /^В заявку/ }).click()])
          }
          const line = page.locator('li.request-line')
          await expect.poll(() => line.count()).toBe(1)
          expect(await line.locator('.request-line__title').textContent()).toMatch(/^Ящик для инструмента, 22"/)
          expect(await textOf('li.request-line')).toContain('1 990')
        },
      )
    })
  }
}
