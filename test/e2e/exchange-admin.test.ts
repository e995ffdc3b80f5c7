// «Обмен с 1С» in Chromium against the production build, at a phone's width: after a real exchange
// through /1c/exchange (one offer for a product the site does not have) and a failed one (a broken
// file), the screen shows what to paste into 1C, the failure as an alert, the exchange's counts and
// the skipped offer with its reason; the owner switches «без остатка» to «Под заказ» and it is kept.
// axe finds nothing.
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_API_PATHS, ADMIN_PATHS } from '../../src/site/paths'
import { launchBrowser } from '../helpers/browser'
import { EXCHANGE_ENV, LOGIN, OneCClient, httpTransport, importXml, offersXml } from '../helpers/one-c'
import { ensureBuild, NOT_KEPT_ALIVE, type ProdServer } from '../helpers/prod-server'
import { ADMIN_SECRET, axeViolations, openSignedIn, startAdminServer } from './admin-helpers'

const PHONE = { width: 390, height: 844 }

let server: ProdServer
let browser: Browser

beforeAll(async () => {
  ensureBuild()
  browser = await launchBrowser()
  server = await startAdminServer(EXCHANGE_ENV)
  const client = new OneCClient(httpTransport(server.url))
  await client.exchange({
    'import.xml': importXml({
      groups: [{ id: 'g-1', name: 'Инструмент из 1С' }],
      products: [{ id: 'p-1', name: 'Ключ гаечный 17', article: 'КГ-17', groups: ['g-1'] }],
    }),
    'offers.xml': offersXml({
      priceTypes: [{ id: 'pt-1', name: 'Розничная' }],
      offers: [
        { id: 'p-1', prices: { 'pt-1': 350 }, quantity: 4 },
        { id: 'p-1#c-red', name: 'Ключ гаечный 17, красный', prices: { 'pt-1': 380 }, quantity: 0 },
        { id: 'p-404', prices: { 'pt-1': 10 }, quantity: 1 },
      ],
    }),
  })
  // A second exchange whose file is cut short: it fails, and the owner must see it.
  await client.checkauth()
  await client.init()
  await client.sendFile('import.xml', Buffer.from('<?xml version="1.0"?><КоммерческаяИнформация><Каталог>'))
  await client.importFile('import.xml')
})
afterAll(async () => {
  await browser?.close()
  await server?.stop()
  server?.cleanup()
})

describe('«Обмен с 1С» in the back office', () => {
  it('shows the address, the last exchanges with their counts and failures, and keeps the settings', async () => {
    const { page, context, errors } = await openSignedIn(browser, server, ADMIN_PATHS.exchange, PHONE)
    await page.getByRole('heading', { name: 'Обмен с 1С', level: 1 }).waitFor()
    await page.getByText(`${server.url}/1c/exchange`, { exact: true }).waitFor()
    await page.getByText(LOGIN, { exact: true }).waitFor()
    expect(await page.getByRole('alert').textContent()).toMatch(
      /Последний обмен завершился ошибкой: .*не является правильным XML/,
    )

    const success = page.locator('.exchange-run--success')
    await success.getByText(/товаров создано 1/).waitFor()
    await success.getByText('Файлы: import.xml, offers.xml', { exact: false }).waitFor()
    await success.getByText('Пропущено: 1').click()
    await success.getByText('Предложение p-404: товара с этим Ид нет на сайте').waitFor()
    // The characteristics' offers are listed, each with its price and stock.
    await success.getByText('Предложения характеристик: 2').click()
    await success.getByText(/Ключ гаечный 17, красный \(p-1#c-red\): цена 380\s₽, остаток 0/).waitFor()
    expect(await axeViolations(page, 'exchange screen')).toEqual([])

    await page.getByLabel('Товар без остатка показывать как').selectOption('on_order')
    await page.getByLabel('Тип цен для цены на сайте').fill('Розничная')
    await page.getByRole('button', { name: 'Сохранить' }).click()
    await page.getByRole('status').filter({ hasText: 'Сохранено' }).waitFor()
    const res = await fetch(server.url + ADMIN_API_PATHS.exchange, {
      headers: { authorization: `Bearer ${ADMIN_SECRET}`, ...NOT_KEPT_ALIVE },
    })
    const { data } = (await res.json()) as { data: { settings: { zeroStock: string; priceType: string } } }
    expect(data.settings).toMatchObject({ zeroStock: 'on_order', priceType: 'Розничная' })

    await page.reload()
    expect(await page.getByLabel('Товар без остатка показывать как').inputValue()).toBe('on_order')
    expect(await axeViolations(page, 'exchange screen after saving')).toEqual([])
    expect(errors()).toEqual([])
    await context.close()
  })
})
