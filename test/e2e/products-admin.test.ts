// «Товары» in Chromium against the production build (issue 33), on SQLite and PostgreSQL: the
// products without a photo found with «Без фото» and all hidden at once; a section's prices raised by
// 5 % on «все по фильтру» and seen on the public page, in the Yandex feed and in search results; a
// price edited in place with the keyboard (Escape cancels, Enter saves, a refused old price says why
// in place); the view's price list downloaded, read back with the project's XLSX library, one price
// changed in it and uploaded: the preview shows exactly that change; on a phone each product is a
// card and nothing scrolls sideways. axe finds nothing at either width (scanned on SQLite: the same
// screens on PostgreSQL prove nothing more).
import ExcelJS from 'exceljs'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { formatMoney } from '../../src/format/money'
import { ADMIN_API_PATHS, ADMIN_PATHS } from '../../src/site/paths'
import { launchBrowser } from '../helpers/browser'
import { multipartBody } from '../helpers/multipart'
import { createTestSchema, TEST_DATABASE_URL, type TestSchema } from '../helpers/postgres'
import { ensureBuild, NOT_KEPT_ALIVE, type ProdServer } from '../helpers/prod-server'
import { ADMIN_SECRET, AXE_DIALECT, axeViolations, openSignedIn, startAdminServer } from './admin-helpers'

const DESKTOP = { width: 1280, height: 900 }
const PHONE = { width: 390, height: 844 }
const bearer = { authorization: `Bearer ${ADMIN_SECRET}`, ...NOT_KEPT_ALIVE }

let server: ProdServer
let browser: Browser

interface Preview {
  confirm: string
  updated: number
  created: number
  sample: { article: string; price: [number | null, number | null] | null }[]
}

/** A price list file sent to the preview: what the preview says. */
async function preview(filename: string, bytes: Buffer): Promise<Preview> {
  const body = multipartBody({}, [{ name: 'file', filename, bytes }])
  const res = await fetch(server.url + ADMIN_API_PATHS.priceListPreview, {
    method: 'POST',
    headers: { ...bearer, ...body.headers },
    body: body.payload,
  })
  expect(res.status).toBe(200)
  return ((await res.json()) as { data: Preview }).data
}

async function priceList(csv: string) {
  const { confirm } = await preview('p.csv', Buffer.from(csv))
  const body = multipartBody({ confirm }, [{ name: 'file', filename: 'p.csv', bytes: Buffer.from(csv) }])
  const res = await fetch(server.url + ADMIN_API_PATHS.priceListApply, {
    method: 'POST',
    headers: { ...bearer, ...body.headers },
    body: body.payload,
  })
  expect(res.status).toBe(200)
}

beforeAll(async () => {
  ensureBuild()
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
})

async function publicStatus(path: string) {
  return (
    await fetch(server.url + encodeURI(path), { headers: { 'user-agent': 'Mozilla/5.0 test', ...NOT_KEPT_ALIVE } })
  ).status
}

const DIALECTS = [
  { name: 'SQLite', available: true },
  { name: 'PostgreSQL', available: Boolean(TEST_DATABASE_URL) },
]

for (const dialect of DIALECTS)
  describe.runIf(dialect.available)(`«Товары» in the back office on ${dialect.name}`, () => {
    let schema: TestSchema | undefined
    beforeAll(async () => {
      schema = dialect.name === 'PostgreSQL' ? await createTestSchema() : undefined
      server = await startAdminServer({ YANDEX_FEED: 'true', ...(schema ? { DATABASE_URL: schema.url } : {}) })
      // Two products from a price list: no photo yet.
      await priceList(
        'Артикул;Наименование;Цена;Раздел\r\nБФ-1;Лобзик без фото;3100;Электроинструмент\r\nБФ-2;Рубанок без фото;4200;Электроинструмент\r\n',
      )
    })
    afterAll(async () => {
      await server?.stop()
      server?.cleanup()
      await schema?.drop()
    })

    it('hides the products without a photo, raises a section by 5 %, edits a price in place, downloads the view', async () => {
      const { page, context, errors } = await openSignedIn(browser, server, ADMIN_PATHS.products, DESKTOP)
      await page.getByRole('heading', { name: 'Товары', level: 1 }).waitFor()
      if (dialect.name === AXE_DIALECT) expect(await axeViolations(page, 'products')).toEqual([])

      // «Без фото» (ours and the demo's heat gun): the filter goes into the URL; all of them hidden at once.
      await page.getByLabel('Без фото', { exact: true }).check()
      await page
        .getByRole('status')
        .filter({ hasText: /^Найдено товаров: 3$/ })
        .waitFor()
      expect(page.url()).toContain('noPhoto=1')
      await page.getByLabel('Все 3 по фильтру', { exact: true }).check()
      await page.getByLabel('Действие', { exact: true }).selectOption('hide')
      await page.getByRole('button', { name: 'Применить' }).click()
      // Every action names how many products it changes and waits for a yes.
      await page.getByRole('group', { name: '«Скрыть (черновик)» — товаров: 3. Выполнить?' }).waitFor()
      await page.getByRole('button', { name: 'Да, выполнить' }).click()
      await page.getByText('Готово: изменено товаров — 3.').waitFor()
      const hidden = await fetch(`${server.url}${ADMIN_API_PATHS.products}?noPhoto=1&state=draft`, { headers: bearer })
      const rows = ((await hidden.json()) as { data: { urlFull: string }[] }).data
      expect(rows).toHaveLength(3)
      expect(await publicStatus(rows[0].urlFull)).toBe(404)

      // A section's prices +5 % on every product of the filter.
      const sectionRows = async () => {
        const sections = await fetch(`${server.url}${ADMIN_API_PATHS.productSections}`, { headers: bearer })
        const id = ((await sections.json()) as { data: { id: number; urlFull: string }[] }).data.find(
          (s) => s.urlFull === '/structure/power-tools/',
        )!.id
        const res = await fetch(`${server.url}${ADMIN_API_PATHS.products}?section=${id}&pageSize=100`, {
          headers: bearer,
        })
        return (await res.json()) as { data: { price: number | null }[]; total: number }
      }
      const inSection = await sectionRows()
      await page.getByLabel('Без фото', { exact: true }).uncheck()
      await page
        .getByLabel('Раздел', { exact: true })
        .first()
        .selectOption({ label: 'Электроинструмент (/structure/power-tools/)' })
      // The screen shows the section's products before any is chosen: no stale count to act on.
      await page
        .getByRole('status')
        .filter({ hasText: new RegExp(`^Найдено товаров: ${inSection.total}$`) })
        .waitFor()
      expect(page.url()).toMatch(/section=\d+/)
      expect(page.url()).not.toContain('noPhoto')
      const before = await fetch(`${server.url}${ADMIN_API_PATHS.products}?q=${encodeURIComponent('ЭИ-1002')}`, {
        headers: bearer,
      })
      const screwdriver = ((await before.json()) as { data: { price: number; urlFull: string; title: string }[] })
        .data[0]
      await page.getByLabel(`Все ${inSection.total} по фильтру`, { exact: true }).check()
      await page.getByLabel('Действие', { exact: true }).selectOption('price')
      await page.getByLabel('Процент (−10 — скидка)').fill('5')
      await page.getByLabel('Округлить', { exact: true }).selectOption('ruble')
      await page.getByRole('button', { name: 'Применить' }).click()
      const priced = inSection.data.filter((row) => row.price !== null).length
      // The products without a price are not counted: «N из M».
      const question = `Цена изменится у товаров: ${priced === inSection.total ? priced : `${priced} из ${inSection.total}`}. Изменить?`
      await page.getByRole('group', { name: question }).waitFor()
      await page.getByRole('button', { name: 'Да, выполнить' }).click()
      await page.getByText(`Готово: изменено товаров — ${priced}.`).waitFor()
      const raised = Math.round(screwdriver.price * 1.05)
      const shown = (html: string) => html.replace(/&nbsp;|&#160;/g, '\u00a0')
      const publicPage = await (
        await fetch(server.url + encodeURI(screwdriver.urlFull), { headers: NOT_KEPT_ALIVE })
      ).text()
      expect(shown(publicPage)).toContain(formatMoney(raised * 100))
      // The feed and search show the new price too.
      const feed = await (await fetch(server.url + '/feeds/yandex.xml', { headers: NOT_KEPT_ALIVE })).text()
      const offer = feed.split('<offer ').find((o) => o.includes(`<vendorCode>ЭИ-1002</vendorCode>`))
      expect(offer).toContain(`<price>${raised}</price>`)
      const found = await fetch(`${server.url}/poisk?q=${encodeURIComponent('ЭИ-1002')}`, {
        headers: { 'user-agent': 'Mozilla/5.0 test', ...NOT_KEPT_ALIVE },
      })
      expect(shown(await found.text())).toContain(formatMoney(raised * 100))

      // In place, with the keyboard: Escape cancels, Enter saves; a refused old price says why.
      await page.getByLabel('Поиск', { exact: true }).fill('ЭИ-1002')
      await page.getByRole('button', { name: 'Найти' }).click()
      await page
        .getByRole('status')
        .filter({ hasText: /^Найдено товаров: 1$/ })
        .waitFor()
      await page.getByRole('button', { name: `Цена «${screwdriver.title}»: изменить`, exact: true }).click()
      await page.getByLabel(`Цена «${screwdriver.title}»`, { exact: true }).fill('1')
      await page.keyboard.press('Escape')
      await page.getByRole('button', { name: `Цена «${screwdriver.title}»: изменить`, exact: true }).click()
      await page.getByLabel(`Цена «${screwdriver.title}»`, { exact: true }).fill('8200')
      await page.keyboard.press('Enter')
      await page
        .getByRole('button', { name: `Цена «${screwdriver.title}»: изменить`, exact: true })
        .filter({ hasText: formatMoney(820000) })
        .waitFor()
      await page.getByRole('button', { name: `Старая цена «${screwdriver.title}»: изменить`, exact: true }).click()
      await page.getByLabel(`Старая цена «${screwdriver.title}»`, { exact: true }).fill('100')
      await page.keyboard.press('Enter')
      await page.getByRole('alert').filter({ hasText: 'Старая цена должна быть больше цены' }).waitFor()
      await page.keyboard.press('Escape')

      // The view's price list, read back with the project's own XLSX library.
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByText('Скачать прайс-лист (XLSX)').click(),
      ])
      const workbook = new ExcelJS.Workbook()
      await workbook.xlsx.readFile(await download.path())
      const sheet = workbook.worksheets[0]
      expect(sheet.actualRowCount).toBe(2)
      expect(sheet.getRow(2).getCell(1).value).toBe('ЭИ-1002')
      expect(sheet.getRow(2).getCell(3).value).toBe(8200)
      // The round trip: one price changed in the workbook is the one change its upload's preview shows.
      sheet.getRow(2).getCell(3).value = 8300
      const edited = Buffer.from(await workbook.xlsx.writeBuffer())
      const roundTrip = await preview('view.xlsx', edited)
      expect(roundTrip).toMatchObject({ updated: 1, created: 0 })
      expect(roundTrip.sample).toEqual([expect.objectContaining({ article: 'ЭИ-1002', price: [8200, 8300] })])
      expect(errors()).toEqual([])
      await context.close()
    })

    it('shows each product as a card on a phone, nothing wider than the screen', async () => {
      const { page, context, errors } = await openSignedIn(
        browser,
        server,
        `${ADMIN_PATHS.products}?sort=price&dir=desc`,
        PHONE,
      )
      await page
        .getByRole('status')
        .filter({ hasText: /Найдено товаров: \d+/ })
        .waitFor()
      const firstCell = page.locator('.products__table tbody tr').first().locator('td').nth(2)
      expect(await firstCell.evaluate((cell) => getComputedStyle(cell).display)).toBe('grid')
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width)
      expect(await page.getByLabel('Сортировка').inputValue()).toBe('price:desc')
      if (dialect.name === AXE_DIALECT) expect(await axeViolations(page, 'products on a phone')).toEqual([])
      expect(errors()).toEqual([])
      await context.close()
    })
  })
