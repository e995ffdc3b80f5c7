// The demo's product without a photo in Chromium (issue 46, item 4), at phone and desktop size: its
// card in «Электроинструмент» and its page show the designed placeholder (src/site/no-photo.ts:
// the pictogram drawn by `.image--empty::before` above «Фото скоро появится»), a box of the size a
// picture would have, not an empty one; its share image is the placeholder's JPEG.
import type { Locator, Page } from 'playwright-core'
import { afterEach, describe, expect, it } from 'vitest'
import { watchErrors } from '../helpers/browser'
import { browserSuite } from '../helpers/browser-suite'
import { NOT_KEPT_ALIVE } from '../helpers/prod-server'

const SECTION = '/structure/power-tools/'
const PRODUCT = '/structure/power-tools/heat-gun'
const TITLE = 'Фен строительный 2000 Вт'

let page: Page

const suite = browserSuite()
afterEach(async () => {
  await page?.context().close()
})

/** What a visitor sees of a placeholder: its box, its words, and the pictogram's box and picture. */
async function drawn(placeholder: Locator) {
  await placeholder.waitFor()
  expect(await placeholder.isVisible()).toBe(true)
  return placeholder.evaluate((el) => {
    const box = el.getBoundingClientRect()
    const pictogram = getComputedStyle(el, '::before')
    return {
      width: box.width,
      height: box.height,
      text: el.textContent,
      picture: pictogram.backgroundImage,
      pictogramWidth: parseFloat(pictogram.width),
      pictogramHeight: parseFloat(pictogram.height),
    }
  })
}

function expectPlaceholder(seen: Awaited<ReturnType<typeof drawn>>, minWidth: number) {
  expect(seen.width).toBeGreaterThanOrEqual(minWidth)
  expect(seen.height).toBeCloseTo(seen.width, 0) // the square box a product picture has
  expect(seen.text).toBe('Фото скоро появится')
  expect(seen.picture).toMatch(/^url\("data:image\/svg\+xml,/)
  expect(seen.pictogramWidth).toBeGreaterThan(10)
  expect(seen.pictogramHeight).toBeCloseTo(seen.pictogramWidth, 0)
}

describe.each([
  ['phone', { width: 390, height: 844 }],
  ['desktop', { width: 1280, height: 800 }],
] as const)('a product without a photo on a %s', (_size, viewport) => {
  it('shows the placeholder on its card and its page, and shares the placeholder image', async () => {
    const context = await suite.browser.newContext({ viewport, locale: 'ru-RU' })
    page = await context.newPage()
    const errors = watchErrors(page)
    await page.goto(suite.server.url + SECTION)
    const card = page.locator('.card').filter({ has: page.locator(`a[href="${PRODUCT}"]`) })
    expect(await card.locator('img').count()).toBe(0)
    const onCard = await drawn(card.locator('.image--empty'))
    expectPlaceholder(onCard, 100)
    // As wide as its neighbours' pictures.
    const neighbour = await page.locator('.card img').first().boundingBox()
    expect(onCard.width).toBeCloseTo(neighbour!.width, 0)

    await page.goto(suite.server.url + PRODUCT)
    const onPage = await drawn(page.getByRole('img', { name: TITLE }))
    expectPlaceholder(onPage, viewport.width < 600 ? 300 : 400)
    const og = await page.locator('meta[property="og:image"]').getAttribute('content')
    expect(og).toBe(`${suite.server.url}/og-image/no-photo.jpg`)
    const image = await fetch(og!, { headers: NOT_KEPT_ALIVE })
    expect([image.status, image.headers.get('content-type')]).toEqual([200, 'image/jpeg'])
    expect(errors).toEqual([])
  })
})
