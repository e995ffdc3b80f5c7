// A product from 1C in the back office (issue 46, item 4; docs/decisions/044-onec-owned-fields.md),
// in Chromium against the production build, at 390×844 and 1366×900, after a real exchange through
// /1c/exchange: «Товары» marks it «Из 1С», a price edited in place asks «Цену этого товара
// перезапишет 1С…» before anything is saved («Отмена» keeps the price, «Сохранить» saves it), and
// the editor shows the mark with the fields 1C overwrites and asks once before its save.
import { afterAll, describe, expect, it } from 'vitest'
import { formatMoney } from '../../src/format/money'
import { ADMIN_API_PATHS, ADMIN_PATHS } from '../../src/site/paths'
import { browserSuite } from '../helpers/browser-suite'
import { NOT_KEPT_ALIVE } from '../helpers/prod-server'
import { EXCHANGE_ENV, OneCClient, httpTransport, importXml, offersXml } from '../helpers/one-c'
import { createTestSchema, TEST_DATABASE_URL, type TestSchema } from '../helpers/postgres'
import { ADMIN_SECRET, openSignedIn, startAdminServer } from './admin-helpers'

const SIZES = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1366, height: 900 },
]
const DIALECTS = [
  { name: 'SQLite', available: true },
  { name: 'PostgreSQL', available: Boolean(TEST_DATABASE_URL) },
]
const TITLE = 'Ключ гаечный 17'
const WARNING = 'Цену этого товара перезапишет 1С при следующем обмене. Сохранить?'

for (const dialect of DIALECTS)
  describe.runIf(dialect.available)(`a product from 1C in the back office on ${dialect.name}`, () => {
    let schema: TestSchema | undefined
    afterAll(async () => {
      await schema?.drop()
    })
    const suite = browserSuite(async () => {
      schema = dialect.name === 'PostgreSQL' ? await createTestSchema() : undefined
      const server = await startAdminServer({ ...EXCHANGE_ENV, ...(schema ? { DATABASE_URL: schema.url } : {}) })
      const answers = await new OneCClient(httpTransport(server.url)).exchange({
        'import.xml': importXml({ products: [{ id: 'p-17', name: TITLE, article: 'КГ-17', description: 'Из 1С.' }] }),
        'offers.xml': offersXml({
          priceTypes: [{ id: 'pt-1', name: 'Розничная' }],
          offers: [{ id: 'p-17', prices: { 'pt-1': 350 }, quantity: 4 }],
        }),
      })
      expect(answers.map((a) => a.lines[0])).toEqual(['success', 'success'])
      return server
    })

    const stored = async () => {
      const res = await fetch(`${suite.server.url}${ADMIN_API_PATHS.products}?q=${encodeURIComponent('КГ-17')}`, {
        headers: { authorization: `Bearer ${ADMIN_SECRET}`, ...NOT_KEPT_ALIVE },
      })
      return ((await res.json()) as { data: { id: number; price: number; oneC: string[] | null }[] }).data[0]
    }

    for (const size of SIZES) {
      it(`marks it «Из 1С» and asks before an inline price 1C will overwrite is saved, at ${size.width} px`, async () => {
        const before = await stored()
        expect(before.oneC).toEqual(['price', 'stock', 'title', 'description', 'images'])
        const { page, context, errors } = await openSignedIn(
          suite.browser,
          suite.server,
          `${ADMIN_PATHS.products}?q=${encodeURIComponent('КГ-17')}`,
          size,
        )
        page.setDefaultTimeout(10_000)
        const row = page.locator('.products__table tbody tr').filter({ hasText: TITLE })
        await row.locator('.products__one-c').filter({ hasText: 'Из 1С' }).waitFor()
        const edit = row.getByRole('button', { name: `Цена «${TITLE}»: изменить`, exact: true })
        const input = row.getByLabel(`Цена «${TITLE}»`, { exact: true })
        const question = row.getByRole('group', { name: WARNING })

        await edit.click()
        await input.fill('399')
        await page.keyboard.press('Enter')
        await question.waitFor()
        expect(await page.evaluate(() => document.documentElement.scrollWidth - innerWidth)).toBeLessThanOrEqual(0)
        // Nothing is saved before the owner's answer; «Отмена» drops the edit.
        expect((await stored()).price).toBe(before.price)
        await question.getByRole('button', { name: 'Отмена' }).click()
        await edit.filter({ hasText: formatMoney(before.price * 100) }).waitFor()
        expect((await stored()).price).toBe(before.price)

        const price = 399 + size.width
        await edit.click()
        await input.fill(String(price))
        await page.keyboard.press('Enter')
        await question.getByRole('button', { name: 'Сохранить' }).click()
        await row.getByRole('status').filter({ hasText: 'Сохранено' }).waitFor()
        await edit.filter({ hasText: formatMoney(price * 100) }).waitFor()
        expect((await stored()).price).toBe(price)
        expect(errors()).toEqual([])
        await context.close()
      })

      it(`shows the mark in the editor and asks once before saving a changed price, at ${size.width} px`, async () => {
        const { id } = await stored()
        const { page, context, errors } = await openSignedIn(suite.browser, suite.server, ADMIN_PATHS.record(id), size)
        page.setDefaultTimeout(10_000)
        const mark = page.locator('.record-editor__one-c')
        await mark.filter({ hasText: 'Из 1С' }).waitFor()
        expect(await mark.textContent()).toContain(
          '1С обновляет при каждом обмене: цена, остаток/наличие, название, описание, картинки',
        )
        const price = 1000 + size.width
        await page.getByLabel('Цена, ₽').fill(String(price))
        await page.getByRole('button', { name: 'Сохранить', exact: true }).click()
        const question = page.getByRole('group', { name: WARNING })
        await question.waitFor()
        expect(await page.evaluate(() => document.documentElement.scrollWidth - innerWidth)).toBeLessThanOrEqual(0)
        await question.getByRole('button', { name: 'Сохранить' }).click()
        await page.getByText('Сохранено. Изменения уже на сайте.').waitFor()
        expect((await stored()).price).toBe(price)
        expect(errors()).toEqual([])
        await context.close()
      })
    }

    it('saves «Цена» switched off in «Настройки», and then a price edited in place is saved without asking', async () => {
      const settings = await openSignedIn(suite.browser, suite.server, ADMIN_PATHS.settings)
      const group = settings.page.getByRole('region', { name: 'Обмен с 1С' })
      const price = group.getByLabel('1С обновляет: цена и старая цена')
      expect(await price.isChecked()).toBe(true)
      await price.uncheck()
      await group.getByRole('button', { name: 'Сохранить' }).click()
      await group.getByRole('status').filter({ hasText: 'Сохранено' }).waitFor()
      expect(settings.errors()).toEqual([])
      await settings.context.close()
      expect((await stored()).oneC).toEqual(['stock', 'title', 'description', 'images'])

      const { page, context, errors } = await openSignedIn(
        suite.browser,
        suite.server,
        `${ADMIN_PATHS.products}?q=${encodeURIComponent('КГ-17')}`,
      )
      const row = page.locator('.products__table tbody tr').filter({ hasText: TITLE })
      await row.locator('.products__one-c').waitFor()
      await row.getByRole('button', { name: `Цена «${TITLE}»: изменить`, exact: true }).click()
      await row.getByLabel(`Цена «${TITLE}»`, { exact: true }).fill('555')
      await page.keyboard.press('Enter')
      await row.getByRole('status').filter({ hasText: 'Сохранено' }).waitFor()
      expect(await row.getByRole('group').count()).toBe(0)
      expect((await stored()).price).toBe(555)
      expect(errors()).toEqual([])
      await context.close()
    })
  })
