// A product of the catalogue in headless Chromium against the production build (decision 025): the
// demo product with its gallery, characteristics, old price and «Под заказ» on a phone (360 px) and a
// desktop; the gallery by keyboard, by a finger's scroll and by its thumbnails; no layout shift;
// axe-core; and the back office editing the characteristics and reordering the gallery, which the
// site then shows.
import type { Page } from 'playwright-core'
import { afterEach, describe, expect, it } from 'vitest'
import { waitForVike, watchErrors } from '../helpers/browser'
import { axeViolations, openSignedIn, startAdminServer, type AdminTab } from './admin-helpers'
import { browserSuite } from '../helpers/browser-suite'
import { NOT_KEPT_ALIVE } from '../helpers/prod-server'

const closing: Array<{ close(): Promise<void> }> = []

const suite = browserSuite(startAdminServer)
afterEach(async () => {
  for (const context of closing.splice(0)) await context.close()
})

const PHONE = { width: 360, height: 740 }
const DESKTOP = { width: 1280, height: 800 }

async function open(path: string, viewport: { width: number; height: number }) {
  const context = await suite.browser.newContext({ viewport, locale: 'ru-RU' })
  closing.push(context)
  const page = await context.newPage()
  const errors = watchErrors(page)
  await page.goto(suite.server.url + path)
  await waitForVike(page, path)
  return { page, errors }
}

/** The layout shift of the page so far (CLS without session windows: every shift counts). */
function layoutShift(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        let total = 0
        const observer = new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as Array<
            PerformanceEntry & { value: number; hadRecentInput: boolean }
          >) {
            if (!entry.hadRecentInput) total += entry.value
          }
        })
        observer.observe({ type: 'layout-shift', buffered: true })
        // Buffered entries arrive in the observer's next callback; two frames later it has run.
        requestAnimationFrame(() =>
          requestAnimationFrame(() => {
            for (const entry of observer.takeRecords() as Array<PerformanceEntry & { value: number }>)
              total += entry.value
            observer.disconnect()
            resolve(total)
          }),
        )
      }),
  )
}

const current = (page: Page) => page.locator('.gallery__thumb[aria-current="true"]').getAttribute('aria-label')

describe('a product of the catalogue', { timeout: 90_000 }, () => {
  for (const [name, viewport] of [
    ['a phone', PHONE],
    ['a desktop', DESKTOP],
  ] as const) {
    it(`shows the gallery, characteristics, old price and «Под заказ» on ${name}, with no shift and no axe violations`, async () => {
      const { page, errors } = await open('/structure/product', viewport)
      const gallery = page.getByRole('region', { name: 'Фотографии товара' })
      await expect.poll(() => gallery.locator('.gallery__slide').count()).toBe(3)
      expect(await gallery.getByRole('button', { name: /^Фото \d из 3$/ }).count()).toBe(3)
      await expect.poll(() => page.locator('.product__availability').textContent()).toBe('Под заказ')
      expect(await page.locator('.product__price .price__old').textContent()).toMatch(/Старая цена: 15\s990/)
      expect(await page.locator('.product__price .price__discount').textContent()).toBe('−19\u00a0%')
      const table = page.getByRole('table')
      expect(await table.getByRole('columnheader', { name: 'Электрика' }).isVisible()).toBe(true)
      expect(await table.getByRole('row', { name: 'Крутящий момент 60 Н·м' }).isVisible()).toBe(true)
      // The first picture is in view and fits the screen.
      const box = (await gallery.locator('img').first().boundingBox())!
      expect(box.width).toBeGreaterThan(200)
      expect(box.x + box.width).toBeLessThanOrEqual(viewport.width)
      await page.waitForFunction(() =>
        [...document.querySelectorAll<HTMLImageElement>('img[loading="eager"]')].every((img) => img.complete),
      )
      expect(await layoutShift(page)).toBe(0)
      expect(await axeViolations(page, `product @${viewport.width}`)).toEqual([])
      expect(errors).toEqual([])
    })
  }

  it('turns the pictures with the arrow keys, a finger’s scroll and the thumbnails', async () => {
    const { page, errors } = await open('/structure/product', PHONE)
    const track = page.locator('.gallery__track')
    const scrolledTo = (index: number) =>
      page.waitForFunction((i) => {
        const el = document.querySelector<HTMLElement>('.gallery__track')!
        return Math.abs(el.scrollLeft - i * el.clientWidth) < 2
      }, index)
    // open() waited for the islands to hydrate: the gallery answers the keys.
    await track.focus()
    expect(await track.evaluate((el) => getComputedStyle(el).outlineStyle)).not.toBe('none')
    await page.keyboard.press('ArrowRight')
    await scrolledTo(1)
    await expect.poll(() => current(page)).toBe('Фото 2 из 3')
    await page.keyboard.press('End')
    await scrolledTo(2)
    await page.keyboard.press('Home')
    await scrolledTo(0)
    await expect.poll(() => current(page)).toBe('Фото 1 из 3')

    // A finger's swipe scrolls the strip; it snaps to a picture and the thumbnails follow.
    await track.evaluate((el) => el.scrollTo({ left: el.clientWidth * 2 }))
    await scrolledTo(2)
    await expect.poll(() => current(page)).toBe('Фото 3 из 3')
    await page.getByRole('button', { name: 'Фото 2 из 3' }).click()
    await scrolledTo(1)
    expect(errors).toEqual([])
  })
})

describe('the back office edits a product’s catalogue fields', { timeout: 120_000 }, () => {
  let tab: AdminTab
  afterEach(async () => {
    expect(tab.errors()).toEqual([])
    await tab.context.close()
  })

  it('adds, reorders and removes characteristics, reorders the gallery, and the site shows it', async () => {
    const query = JSON.stringify({ where: { urlFull: '/structure/garden/lawn-mower' }, select: { id: true } })
    const res = await fetch(`${suite.server.url}/api/structure?query=${encodeURIComponent(query)}`, {
      headers: NOT_KEPT_ALIVE,
    })
    const id = ((await res.json()) as { data: { id: number } }).data.id
    tab = await openSignedIn(suite.browser, suite.server, `/admin/content/${id}`)
    const { page } = tab
    const properties = page.getByRole('group', { name: 'Характеристики' })
    await properties.getByRole('button', { name: 'Добавить характеристику' }).click()
    await properties.getByLabel('Название').last().fill('Объём бака')
    await properties.getByLabel('Значение').last().fill('1,2')
    await properties.getByLabel('Единица измерения').last().fill('л')
    await properties.getByLabel('Группа (необязательно)').last().fill('Двигатель')
    // The new row (5th) goes up to the 3rd place, under the engine's rows; the old 4th row is removed.
    await properties.getByRole('button', { name: 'Характеристика 5: выше' }).click()
    await properties.getByRole('button', { name: 'Характеристика 4: выше' }).click()
    await properties.getByRole('button', { name: 'Характеристика 5: удалить' }).click()
    await page.getByLabel('Цена до скидки, ₽').fill('29 990')
    await page.getByLabel('Наличие').selectOption('in_stock')
    const gallery = page.getByRole('group', { name: 'Фотографии (первая — главная)' })
    const [first, second] = await Promise.all(
      [1, 2].map((n) => gallery.getByRole('img', { name: `Сейчас: фото ${n}` }).getAttribute('src')),
    )
    await gallery.getByRole('button', { name: 'Фото 2: выше' }).click()
    await page.getByRole('button', { name: 'Сохранить' }).click()
    await page.getByRole('status').filter({ hasText: 'Сохранено' }).waitFor()

    const html = await (
      await fetch(`${suite.server.url}/structure/garden/lawn-mower`, { headers: NOT_KEPT_ALIVE })
    ).text()
    const rows = [...html.matchAll(/<tr>(.*?)<\/tr>/g)].map((m) =>
      m[1]
        .replace(/<[^>]+>/g, ' ')
        .replace(/\s+/g, ' ')
        .trim(),
    )
    expect(rows).toEqual([
      'Двигатель',
      'Тип бензиновый, четырёхтактный',
      'Мощность 3,5 л. с.',
      'Объём бака 1,2 л',
      'Кошение',
      'Ширина скашивания 46 см',
    ])
    expect(html).toContain('В наличии')
    expect(html).toMatch(/<del class="price__old">.*29\s990/)
    const slides = [...html.matchAll(/<figure class="gallery__slide"[\s\S]*?<img [^>]*src="([^"]+)"/g)].map((m) => m[1])
    expect(slides).toEqual([second, first])
  })
})
