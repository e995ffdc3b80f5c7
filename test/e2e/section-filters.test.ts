// The demo's «Электроинструмент» narrowed by its characteristics in Chromium (issue 46, item 2;
// docs/decisions/042-characteristics-and-filters.md), at phone and desktop size, with JavaScript and
// without: the section's GET form offers each value with its count and each range's two fields; two
// colours and a power range chosen, the page loads at the canonical spelling of the combination,
// lists only what matches, counts each value under the other filters and keeps the choices in the
// form; the section stays the canonical link, and a phone never scrolls sideways.
import type { Page } from 'playwright-core'
import { afterEach, describe, expect, it } from 'vitest'
import { watchErrors } from '../helpers/browser'
import { browserSuite } from '../helpers/browser-suite'

const SECTION = '/structure/power-tools/'
const SIZES = [
  ['phone', { width: 390, height: 844 }],
  ['desktop', { width: 1280, height: 800 }],
] as const

let page: Page

const suite = browserSuite()
afterEach(async () => {
  await page?.context().close()
})

const titles = async () => (await page.locator('.card__title').allTextContents()).sort()
const group = (name: string) => page.getByRole('group', { name, exact: true })
/** The names of a group's checkboxes, «value (count)», as a visitor reads them */
const choices = (name: string) => group(name).locator('li label').allTextContents()

describe.each(SIZES)('section filters on a %s', (_size, viewport) => {
  it.each([
    ['with JavaScript', true],
    ['without JavaScript', false],
  ])('narrow «Электроинструмент» by two colours and a power range %s', async (_js, javaScriptEnabled) => {
    const context = await suite.browser.newContext({ viewport, locale: 'ru-RU', javaScriptEnabled })
    page = await context.newPage()
    const errors = watchErrors(page)
    await page.goto(suite.server.url + SECTION)
    expect(await page.locator('.listing-filter legend').allTextContents()).toEqual([
      'Бренд',
      'Тип питания',
      'Мощность, Вт',
      'Цвет',
      'Масса, кг',
    ])
    expect(await choices('Бренд')).toEqual(['Мастер Про (4)', 'Вихрь (3)', 'Термит (1)'])
    expect(await choices('Тип питания')).toEqual(['сеть (6)', 'аккумулятор (2)'])
    expect(await choices('Цвет')).toEqual(['синий (3)', 'зелёный (2)', 'оранжевый (2)', 'красный (1)'])
    const power = group('Мощность, Вт')
    expect(await power.getByLabel('от').getAttribute('placeholder')).toBe('650')
    expect(await power.getByLabel('до').getAttribute('placeholder')).toBe('2000')
    expect(await titles()).toHaveLength(8)
    const sideways = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
    expect(await sideways()).toBeLessThanOrEqual(0)

    const blue = group('Цвет').getByRole('checkbox', { name: 'синий (3)' })
    const colour = await blue.getAttribute('name')
    const powerName = await power.getByLabel('от').getAttribute('name')
    await group('Цвет').getByRole('checkbox', { name: 'зелёный (2)' }).check()
    await blue.check()
    await power.getByLabel('от').fill('700')
    await power.getByLabel('до').fill('1500')
    await page.getByRole('button', { name: 'Показать' }).click()
    // Values sorted, `f.` before `r.`, the range's two fields as one min-max; empty fields dropped.
    const canonical = `${SECTION}?${colour}=${encodeURIComponent('зелёный')}&${colour}=${encodeURIComponent('синий')}&${powerName}=700-1500`
    await page.waitForURL(suite.server.url + canonical)

    expect(await titles()).toEqual([
      'Перфоратор SDS-plus 800 Вт',
      'Пила циркулярная 1400 Вт',
      'Углошлифовальная машина 125 мм',
    ])
    expect(await page.getByRole('status').filter({ hasText: 'Найдено товаров' }).textContent()).toBe(
      'Найдено товаров: 3',
    )
    // Each colour counted under the power range; the chosen ones stay checked.
    expect(await choices('Цвет')).toEqual(['зелёный (2)', 'оранжевый (1)', 'синий (1)'])
    expect(await group('Цвет').getByRole('checkbox', { name: 'синий (1)' }).isChecked()).toBe(true)
    expect(await group('Цвет').getByRole('checkbox', { name: 'зелёный (2)' }).isChecked()).toBe(true)
    expect(await group('Цвет').getByRole('checkbox', { name: 'оранжевый (1)' }).isChecked()).toBe(false)
    expect(await choices('Тип питания')).toEqual(['сеть (3)'])
    expect(await choices('Бренд')).toEqual(['Вихрь (2)', 'Мастер Про (1)'])
    expect(await power.getByLabel('от').inputValue()).toBe('700')
    expect(await power.getByLabel('до').inputValue()).toBe('1500')
    expect(await page.locator('link[rel="canonical"]').getAttribute('href')).toBe(suite.server.url + SECTION)
    expect(await sideways()).toBeLessThanOrEqual(0)

    await page.getByRole('link', { name: 'Сбросить' }).click()
    await page.waitForURL(suite.server.url + SECTION)
    expect(await titles()).toHaveLength(8)
    expect(errors).toEqual([])
  })
})
