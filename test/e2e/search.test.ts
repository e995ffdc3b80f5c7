// The catalogue search in headless Chromium against the production build (issue 22, issue 27): the
// header's box on a public page leads to /poisk with inflected forms, an артикул in another form and
// a typo found, with and without JavaScript, on SQLite and PostgreSQL; axe-core on /poisk; the back
// office finds «ЭИ-1003» by «эи1003» as the owner types and opens its editor.
import type { Browser, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { launchBrowser, waitForVike, watchErrors, wcagScan } from '../helpers/browser'
import { createTestSchema, TEST_DATABASE_URL, type TestSchema } from '../helpers/postgres'
import { ensureBuild, startProdServer, type ProdServer } from '../helpers/prod-server'
import { openSignedIn, startAdminServer, type AdminTab } from './admin-helpers'

let browser: Browser

beforeAll(async () => {
  ensureBuild()
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
})

const DIALECTS = [
  { name: 'SQLite', available: true },
  { name: 'PostgreSQL', available: Boolean(TEST_DATABASE_URL) },
]

for (const dialect of DIALECTS) {
  describe.runIf(dialect.available)(`the header's search on ${dialect.name}`, () => {
    let server: ProdServer
    let schema: TestSchema | undefined
    let page: Page
    let errors: string[]

    beforeAll(async () => {
      schema = dialect.name === 'PostgreSQL' ? await createTestSchema() : undefined
      server = await startProdServer(schema ? { DATABASE_URL: schema.url } : {})
    })
    afterAll(async () => {
      await server?.stop()
      server?.cleanup()
      await schema?.drop()
    })
    afterEach(async () => {
      expect(errors).toEqual([])
      await page?.context().close()
    })

    async function open(path: string, javaScriptEnabled = true) {
      const context = await browser.newContext({
        viewport: { width: 1280, height: 800 },
        locale: 'ru-RU',
        javaScriptEnabled,
      })
      page = await context.newPage()
      errors = watchErrors(page)
      await page.goto(server.url + path)
      if (javaScriptEnabled) await waitForVike(page, path.split('?')[0])
    }

    async function searchFromHeader(query: string) {
      await page.getByRole('search').first().getByLabel('Поиск по каталогу').fill(query)
      await Promise.all([page.waitForURL(/\/poisk\?q=/), page.keyboard.press('Enter')])
    }

    const cardTitles = () => page.locator('.card__title').allTextContents()

    it('finds an inflected form, with the matched word marked', async () => {
      await open('/structure/')
      await searchFromHeader('дрели')
      expect(new URL(page.url()).searchParams.get('q')).toBe('дрели')
      expect(await cardTitles()).toContain('Дрель ударная 750 Вт')
      expect(await page.locator('.card__title mark').first().textContent()).toMatch(/^Дрель/)
      await expect.poll(() => page.getByLabel('Поиск по каталогу').last().inputValue()).toBe('дрели')
    })

    it('finds an артикул typed in another form, first', async () => {
      await open('/')
      await searchFromHeader('эи1007')
      expect((await cardTitles())[0]).toBe('Дрель ударная 750 Вт')
    })

    it('forgives a typo and offers the corrected query', async () => {
      await open('/')
      await searchFromHeader('перфаратор')
      await expect.poll(() => page.getByRole('status').first().textContent()).toContain('Возможно, вы искали')
      expect(await cardTitles()).toContain('Перфоратор SDS-plus 800 Вт')
      await Promise.all([
        page.waitForURL(/q=%D0%BF%D0%B5%D1%80%D1%84%D0%BE%D1%80/),
        page.getByRole('link', { name: /перфоратор/ }).click(),
      ])
      expect(await cardTitles()).toContain('Перфоратор SDS-plus 800 Вт')
    })

    it('works without JavaScript: a plain GET form', async () => {
      await open('/', false)
      await searchFromHeader('шуруповёрты')
      const titles = await cardTitles()
      expect(titles).toContain('Шуруповёрт аккумуляторный 18 В')
      await page.goto(`${server.url}/poisk?q=${encodeURIComponent('нетакоготовара')}`)
      expect(await page.locator('main').textContent()).toContain('Ничего не найдено по запросу «нетакоготовара»')
    })

    it.runIf(dialect.name === 'SQLite')('passes axe-core on /poisk, with results and without', async () => {
      for (const path of [
        '/poisk',
        `/poisk?q=${encodeURIComponent('дрели')}`,
        `/poisk?q=${encodeURIComponent('перфаратор')}`,
      ]) {
        await open(path)
        const { violations } = await wcagScan(page)
        expect(
          violations.map((v) => `${path}: ${v.id} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`),
        ).toEqual([])
        await page.context().close()
      }
    })
  })
}

describe('the back office search', () => {
  let server: ProdServer
  let tab: AdminTab | undefined

  beforeAll(async () => {
    server = await startAdminServer()
  })
  afterAll(async () => {
    await server?.stop()
    server?.cleanup()
  })
  afterEach(async () => {
    expect(tab?.errors()).toEqual([])
    await tab?.context.close()
  })

  it('finds «ЭИ-1003» by «эи1003» as the owner types and opens its editor', async () => {
    tab = await openSignedIn(browser, server, '/admin/content')
    const { page } = tab
    await page.getByLabel('Найти запись: название, адрес или артикул').pressSequentially('эи1003', { delay: 30 })
    const result = page.locator('.content-search__results a', { hasText: 'Углошлифовальная машина 125 мм' })
    await result.waitFor()
    await page.getByRole('status').filter({ hasText: 'Найдено: 1' }).waitFor()
    await result.click()
    await page.waitForURL(/\/admin\/content\/\d+$/)
    await expect
      .poll(() => page.getByLabel('Заголовок', { exact: true }).inputValue())
      .toBe('Углошлифовальная машина 125 мм')
  })
})
