// «Прайс-лист» in Chromium against the production build, at a phone's width: a CSV made here with
// one refused row and one new product in a section the site lacks is previewed (the counts, the
// section to be created, the refused row's number and reason, nothing written),
// a change to the catalogue in between makes «Применить» answer 409 with a fresh preview offered,
// then it is applied and the new price is on the product's public page. «Выгрузки» shows the feed's
// URL, the offers Yandex Товары would refuse (40 of the demo's 45 have no brand) with links to
// their edit screens, and, with a stand-in for Yandex that refuses the key (403), the dead IndexNow
// batch.
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { formatMoney } from '../../src/format/money'
import { ADMIN_API_PATHS, ADMIN_PATHS, PATHS } from '../../src/site/paths'
import { launchBrowser } from '../helpers/browser'
import { multipartBody } from '../helpers/multipart'
import { ensureBuild, NOT_KEPT_ALIVE, type ProdServer } from '../helpers/prod-server'
import { startHttpReceiver, waitFor, type HttpReceiver } from '../helpers/receivers'
import { ADMIN_SECRET, axeViolations, openSignedIn, startAdminServer } from './admin-helpers'

const PHONE = { width: 390, height: 844 }
const PRODUCT = '/structure/power-tools/screwdriver'
const NEW_PRICE = 7777
const CSV = `Артикул;Наименование;Цена;Раздел\r\nЭИ-1002;;${NEW_PRICE},00;\r\nНЕТ-1;;100;\r\nНОВ-Э;Дрель новая;1000;Электроинструмент / Дрели\r\n`
const REFUSED_REASON = 'Товара с таким артикулом нет на сайте, а для нового товара нужно наименование'

let server: ProdServer
let browser: Browser
let yandex: HttpReceiver

beforeAll(async () => {
  ensureBuild()
  yandex = await startHttpReceiver()
  // Yandex refuses the key: every batch is dead at once and listed in «Выгрузки».
  yandex.fallback = { status: 403 }
  browser = await launchBrowser()
  server = await startAdminServer({ YANDEX_FEED: 'true', INDEXNOW: 'on', INDEXNOW_URL: `${yandex.url}/indexnow` })
})
afterAll(async () => {
  await browser?.close()
  await server?.stop()
  server?.cleanup()
  await yandex?.close()
})

const bearer = { authorization: `Bearer ${ADMIN_SECRET}`, ...NOT_KEPT_ALIVE }

/** Changes another product's price through the API, as a second owner's tab would. */
async function changeCatalogueElsewhere(): Promise<void> {
  const file = Buffer.from('Артикул;Цена\nЭИ-1003;5555\n')
  const post = async (url: string, fields: Record<string, string> = {}) => {
    const body = multipartBody(fields, [{ name: 'file', filename: 'other.csv', bytes: file }])
    const res = await fetch(server.url + url, {
      method: 'POST',
      headers: { ...bearer, ...body.headers },
      body: body.payload,
    })
    expect(res.status).toBe(200)
    return ((await res.json()) as { data: { confirm: string } }).data
  }
  await post(ADMIN_API_PATHS.priceListApply, { confirm: (await post(ADMIN_API_PATHS.priceListPreview)).confirm })
}

interface FeedRefusals {
  offers: number
  reasons: { reason: string; count: number; examples: { id: number; title: string }[] }[]
}

async function feedRefusals(): Promise<FeedRefusals> {
  const res = await fetch(server.url + ADMIN_API_PATHS.feeds, { headers: bearer })
  return ((await res.json()) as { data: { yandexFeed: FeedRefusals } }).data.yandexFeed
}

async function deadIndexNowUrls(): Promise<number> {
  const res = await fetch(server.url + ADMIN_API_PATHS.feeds, { headers: bearer })
  return ((await res.json()) as { data: { indexNow: { dead: number } } }).data.indexNow.dead
}

describe('the price list in the back office', () => {
  it('previews a file with a refused row, survives a stale preview, applies it, and shows the feeds', async () => {
    const { page, context, errors } = await openSignedIn(browser, server, ADMIN_PATHS.priceList, PHONE)
    await page.getByRole('heading', { name: 'Прайс-лист', level: 1 }).waitFor()

    // «Выгрузки»: the feed's absolute URL to paste into Direct, IndexNow on.
    const feedUrl = `${server.url}${PATHS.yandexFeed}`
    await page.getByText(feedUrl, { exact: true }).waitFor()
    expect(await page.getByText('Включено. Ожидают отправки адресов').count()).toBe(1)

    // What Yandex Товары would refuse: counted as the API counts, the first offers linked to their edit screens.
    await page.getByRole('heading', { name: 'Яндекс Товары не примет' }).waitFor()
    const { reasons } = await feedRefusals()
    const vendor = reasons.find((r) => r.reason === 'vendor')!
    expect(vendor.count).toBeGreaterThan(10)
    const unbranded = page.getByRole('listitem').filter({ hasText: 'Без бренда' })
    expect(await unbranded.locator('[data-count="vendor"]').textContent()).toBe(String(vendor.count))
    const example = unbranded.getByRole('link', { name: vendor.examples[0].title, exact: true })
    expect(await example.getAttribute('href')).toBe(ADMIN_PATHS.record(vendor.examples[0].id))
    expect(await unbranded.textContent()).toContain('YANDEX_FEED_VENDOR')
    expect(await axeViolations(page, 'feed refusals')).toEqual([])

    await page.getByLabel('Файл прайс-листа').setInputFiles({
      name: 'prices.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(CSV),
    })
    await page.getByRole('button', { name: 'Проверить файл' }).click()
    const status = page.getByRole('status').filter({ hasText: 'Предпросмотр готов' })
    await status.waitFor()
    expect(await status.textContent()).toContain(
      'обновится: 1, будет создано: 1, без изменений: 0, отклонено строк: 1, будут созданы разделы: Электроинструмент / Дрели',
    )
    const count = (name: string) => page.locator(`dd[data-count="${name}"]`).textContent()
    expect([await count('updated'), await count('created'), await count('refused')]).toEqual(['1', '1', '1'])
    expect(await page.getByTestId('new-sections').textContent()).toBe(
      'Будут созданы разделы: Электроинструмент / Дрели.',
    )
    const refusedRow = page.getByRole('row').filter({ hasText: REFUSED_REASON })
    expect(await refusedRow.getByRole('cell').allTextContents()).toEqual(['3', 'НЕТ-1', REFUSED_REASON])
    expect(await axeViolations(page, 'price list preview')).toEqual([])
    // Nothing is written by the preview; the page fits the phone's width.
    expect(await (await fetch(server.url + PRODUCT, { headers: NOT_KEPT_ALIVE })).text()).not.toContain(
      formatMoney(NEW_PRICE * 100),
    )
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)

    // Someone changes the catalogue after the preview: «Применить» refuses and offers a fresh look.
    await changeCatalogueElsewhere()
    await page.getByRole('button', { name: 'Применить' }).click()
    await page.getByRole('alert').filter({ hasText: 'Каталог или файл изменились после предпросмотра' }).waitFor()
    expect(await page.getByRole('button', { name: 'Применить' }).count()).toBe(0)
    await page.getByRole('button', { name: 'Проверить файл заново' }).click()
    await status.waitFor()

    await page.getByRole('button', { name: 'Применить' }).click()
    const done = page.getByRole('status').filter({ hasText: 'Прайс-лист применён' })
    await done.waitFor()
    expect(await done.textContent()).toContain(
      'обновлено: 1, создано: 1, без изменений: 0, пропущено строк: 1, созданы разделы: Электроинструмент / Дрели',
    )
    expect(
      (await fetch(`${server.url}/structure/power-tools/dreli/drel-novaya`, { headers: NOT_KEPT_ALIVE })).status,
    ).toBe(200)

    const product = await context.newPage()
    await product.goto(server.url + PRODUCT)
    expect(await product.locator('main').textContent()).toContain(formatMoney(NEW_PRICE * 100))
    await product.close()

    // Both writes (a product and its section each) went to the stand-in for Yandex, which refused
    // the key: «Выгрузки» lists why.
    await waitFor(async () => (await deadIndexNowUrls()) >= 3, 'the dead IndexNow batches')
    await page.reload()
    await page.getByRole('heading', { name: 'Яндекс не принял' }).waitFor()
    const dead = page.getByRole('listitem').filter({ hasText: 'Яндекс не принял ключ (403)' })
    expect(await dead.count()).toBeGreaterThanOrEqual(1)
    expect(await dead.first().textContent()).toContain(`${server.url}/structure/power-tools/`)
    expect(await axeViolations(page, 'feeds status')).toEqual([])
    expect(errors()).toEqual([])
    await context.close()
  })
})
