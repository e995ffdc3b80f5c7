// «Характеристики» and a section's filter by one, in Chromium against the production build (issue
// 46, docs/decisions/042-characteristics-and-filters.md): the owner makes the demo's «Напряжение, В»
// a filter by values on the screen (axe finds nothing); then a visitor without JavaScript narrows
// «Электроинструмент» by it with the section's plain GET form, and the list holds only what has the
// value. On a phone, the owner renames the brand's filter (the products' own field: values only, no
// unit, always shown) and a visitor's section shows it so. (The demo's own filters, at phone and
// desktop size: section-filters.test.ts.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
import { ADMIN_PATHS } from '../../src/site/paths'
import { launchBrowser } from '../helpers/browser'
import { ensureBuild, type ProdServer } from '../helpers/prod-server'
import { axeViolations, openSignedIn, startAdminServer } from './admin-helpers'

let server: ProdServer
let browser: Browser

beforeAll(async () => {
  ensureBuild()
  browser = await launchBrowser()
  server = await startAdminServer()
})
afterAll(async () => {
  await browser?.close()
  await server?.stop()
  server?.cleanup()
})

describe('characteristics in the back office and a section filter without JavaScript', () => {
  it('makes «Напряжение» a filter by values, and a visitor without JavaScript narrows a section by it', async () => {
    const { page, context, errors } = await openSignedIn(browser, server, ADMIN_PATHS.characteristics)
    await page.getByRole('heading', { name: 'Характеристики', level: 1 }).waitFor()
    const form = page.getByRole('form', { name: /^Напряжение, В/ })
    await form.getByLabel('Фильтр в разделах').selectOption('values')
    await form.getByRole('button', { name: 'Сохранить' }).click()
    await form.getByRole('status').filter({ hasText: 'Сохранено' }).waitFor()
    expect(await axeViolations(page, 'characteristics screen')).toEqual([])
    expect(errors()).toEqual([])
    await context.close()

    const visitor = await browser.newContext({ locale: 'ru-RU', javaScriptEnabled: false })
    const tab = await visitor.newPage()
    await tab.goto(`${server.url}/structure/power-tools/`)
    const titles = () => tab.locator('.card__title').allTextContents()
    expect((await titles()).length).toBeGreaterThan(1)
    // Only the screwdriver has a «Напряжение» (the drill's is «Напряжение аккумулятора»).
    const voltage = tab.getByRole('group', { name: 'Напряжение, В' })
    await voltage.getByRole('checkbox', { name: '18 (1)' }).check()
    await tab.getByRole('button', { name: 'Показать' }).click()
    await tab.waitForURL(/\?f\.\d+=18$/)
    expect(await titles()).toEqual(['Шуруповёрт аккумуляторный 18 В'])
    expect(await voltage.getByRole('checkbox', { name: '18 (1)' }).isChecked()).toBe(true)
    await visitor.close()
  })

  it('renames the brand’s filter on a phone, which offers it by values only', async () => {
    const phone = { width: 390, height: 844 }
    const { page, context, errors } = await openSignedIn(browser, server, ADMIN_PATHS.characteristics, phone)
    const form = page.getByRole('form', { name: /^Бренд товара/ })
    await form.waitFor()
    expect(await form.getByLabel('Фильтр в разделах').locator('option').allTextContents()).toEqual(['Нет', 'Значения'])
    expect(await form.getByLabel('Единица').count()).toBe(0)
    await form.getByLabel('Название на сайте').fill('Производитель')
    await form.getByRole('button', { name: 'Сохранить' }).click()
    await form.getByRole('status').filter({ hasText: 'Сохранено' }).waitFor()
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0)
    expect(errors()).toEqual([])
    await context.close()

    const visitor = await browser.newContext({ locale: 'ru-RU', viewport: phone })
    const tab = await visitor.newPage()
    await tab.goto(`${server.url}/structure/power-tools/`)
    const brands = tab.getByRole('group', { name: 'Производитель' })
    expect(await brands.getByRole('checkbox').count()).toBe(3)
    await visitor.close()
  })
})
