// «Скачать прайс-лист» (issue 33), on SQLite and PostgreSQL: the catalogue as XLSX and CSV in the
// columns the import reads, and the round trip that is the feature: export, change one price (in the
// workbook with the project's own XLSX library, or in the CSV's text), upload: the preview shows
// exactly that one change. The filters narrow the file; a bad filter is a Russian 400; the file is
// the owner's only.
import ExcelJS from 'exceljs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_TOKEN, AUTH } from '../api/helpers'
import type { TestApp } from '../helpers/build-test-app'
import { DIALECTS } from '../helpers/dialects'
import { uploadPriceList } from '../helpers/multipart'

const ARTICLE = 'ЭИ-1002'

for (const dialect of DIALECTS) {
  describe.runIf(dialect.available)(`the price list export on ${dialect.name}`, () => {
    let t: TestApp
    beforeAll(async () => {
      t = await dialect.build({ ADMIN_TOKEN })
    })
    afterAll(async () => {
      await t?.close()
    })

    const download = (format: 'xlsx' | 'csv', query = '', headers: Record<string, string> = AUTH) =>
      t.app.inject({ url: `/api/admin/price-list.${format}${query}`, headers })
    const withArticle = async () =>
      (
        await t.app.db
          .selectFrom('product')
          .select('article')
          .where('article', 'is not', null)
          .where('article', '<>', '')
          .execute()
      ).length

    async function workbookOf(bytes: Buffer) {
      const workbook = new ExcelJS.Workbook()
      await workbook.xlsx.load(bytes as unknown as ArrayBuffer)
      return workbook
    }

    it('gives the whole catalogue as an XLSX the import reads back without a change', async () => {
      const res = await download('xlsx')
      expect(res.statusCode).toBe(200)
      expect(res.headers['content-type']).toContain('spreadsheetml')
      expect(res.headers['content-disposition']).toMatch(/attachment; filename="price-list-\d{8}\.xlsx"/)
      const sheet = (await workbookOf(res.rawPayload)).worksheets[0]
      const header = (sheet.getRow(1).values as unknown[]).slice(1)
      expect(header.slice(0, 8)).toEqual([
        'Артикул',
        'Наименование',
        'Цена',
        'Старая цена',
        'Наличие',
        'Раздел',
        'Бренд',
        'Модель',
      ])
      expect(header.length).toBeGreaterThan(8)
      // A product with variants (decision 043) is a row per variant: the demo's tool box in three sizes.
      const variants = (await t.app.db.selectFrom('productVariant').select('id').execute()).length
      expect(variants).toBe(3)
      expect(sheet.actualRowCount - 1).toBe((await withArticle()) - 1 + variants)

      const preview = await uploadPriceList(t.app, AUTH, res.rawPayload)
      expect(preview.statusCode, preview.body).toBe(200)
      const data = preview.json().data
      expect(data).toMatchObject({
        updated: 0,
        created: 0,
        refused: [],
        variants: { created: 0, updated: 0, removed: 0 },
      })
      // The tool box's three rows are one product.
      expect(data.unchanged).toBe(await withArticle())
    })

    it('round trip through Excel: one price changed in the workbook is the one change the preview shows', async () => {
      const workbook = await workbookOf((await download('xlsx')).rawPayload)
      const sheet = workbook.worksheets[0]
      let changed = 0
      sheet.eachRow((row) => {
        if (row.getCell(1).value === ARTICLE) {
          row.getCell(3).value = 12_345
          changed++
        }
      })
      expect(changed).toBe(1)
      const edited = Buffer.from(await workbook.xlsx.writeBuffer())
      const preview = (await uploadPriceList(t.app, AUTH, edited)).json().data
      expect(preview).toMatchObject({ updated: 1, created: 0, refused: [] })
      expect(preview.sample).toEqual([
        expect.objectContaining({ article: ARTICLE, kind: 'update', price: [expect.any(Number), 12_345] }),
      ])
    })

    it('round trip through CSV as Russian Excel saves it', async () => {
      const res = await download('csv')
      expect(res.statusCode).toBe(200)
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8')
      const text = res.rawPayload.toString('utf8')
      expect(text.startsWith('\uFEFFАртикул;Наименование;Цена;Старая цена;Наличие;Раздел;Бренд')).toBe(true)
      const lines = text.split('\r\n')
      const index = lines.findIndex((line) => line.startsWith(`${ARTICLE};`))
      const cells = lines[index].split(';')
      cells[2] = '9 999,00'
      lines[index] = cells.join(';')
      const preview = (await uploadPriceList(t.app, AUTH, Buffer.from(lines.join('\r\n')))).json().data
      expect(preview).toMatchObject({ updated: 1, created: 0, refused: [] })
      expect(preview.sample[0]).toMatchObject({ article: ARTICLE, price: [expect.any(Number), 9999] })
    })

    it('narrows the file by the filters and refuses a filter it does not know', async () => {
      const section = await t.app.db
        .selectFrom('structure')
        .select('id')
        .where('urlFull', '=', '/structure/power-tools/')
        .executeTakeFirstOrThrow()
      const csv = (await download('csv', `?section=${section.id}`)).rawPayload.toString('utf8')
      const articles = csv
        .split('\r\n')
        .slice(1)
        .filter(Boolean)
        .map((line) => line.split(';')[0])
      const expected = await t.app.db
        .selectFrom('product')
        .innerJoin('structure', 'structure.id', 'product.structureId')
        .select('product.article')
        .where('structure.parentId', '=', section.id)
        .execute()
      expect(articles.sort()).toEqual(expected.map((p) => p.article).sort())

      const onOrder = (await download('csv', '?avail=on_order')).rawPayload.toString('utf8')
      for (const line of onOrder.split('\r\n').slice(1).filter(Boolean)) expect(line).toContain(';Под заказ;')

      const wrong = await download('csv', '?avail=maybe')
      expect(wrong.statusCode).toBe(400)
      expect(wrong.json().errors.avail).toMatch(/Наличие/)
      expect((await download('xlsx', '', {})).statusCode).toBe(401)
    })
  })
}
