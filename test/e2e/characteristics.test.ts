// «Характеристики» and a section's filter by one, in Chromium against the production build (issue
// 46, docs/decisions/042-characteristics-and-filters.md): the owner makes the demo's «Масса, кг» a
// range filter on the screen (axe finds nothing); then a visitor without JavaScript narrows
// «Электроинструмент» by it with the section's plain GET form: the form's two fields of one name
// come back as the canonical `r.<id>=<min>-<max>`, and the list holds only what is in the range.
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
  it('makes «Масса» a range filter, and a visitor without JavaScript narrows a section by it', async () => {
    const { page, context, errors } = await openSignedIn(browser, server, ADMIN_PATHS.characteristics)
    await page.getByRole('heading', { name: 'Характеристики', level: 1 }).waitFor()
    const form = page.getByRole('form', { name: /^Масса, кг/ })
    await form.getByLabel('Фильтр в разделах').selectOption('range')
    await form.getByRole('button', { name: 'Сохранить' }).click()
    await form.getByRole('status').filter({ hasText: 'Сохранено' }).waitFor()
    expect(await axeViolations(page, 'characteristics screen')).toEqual([])
    expect(errors()).toEqual([])
    await context.close()

    const visitor = await browser.newContext({ locale: 'ru-RU', javaScriptEnabled: false })
    const tab = await visitor.newPage()
    await tab.goto(`${server.url}/structure/power-tools/`)
    const titles = () => tab.locator('.card__title').allTextContents()
    const before = await titles()
    expect(before).toContain('Шуруповёрт аккумуляторный 18 В')
    const range = tab.getByRole('group', { name: 'Масса, кг' })
    expect(before.length).toBeGreaterThan(1)
    await range.getByLabel('до').fill('1.5')
    await tab.getByRole('button', { name: 'Показать' }).click()
    await tab.waitForURL(/\?r\.\d+=-1\.5$/)
    // Only the screwdriver (1,2 kg) has a weight in this section.
    expect(await titles()).toEqual(['Шуруповёрт аккумуляторный 18 В'])
    expect(await range.getByLabel('до').inputValue()).toBe('1.5')
    await visitor.close()
  })
})
