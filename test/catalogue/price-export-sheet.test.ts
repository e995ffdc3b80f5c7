// The exported price list as Excel opens it (issue 45, item 4), on SQLite and PostgreSQL: the header
// row frozen and filtered, every column given a width, prices and plain-number characteristics as
// number cells, and the workbook uploaded back changes nothing.
import ExcelJS from 'exceljs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_TOKEN, AUTH } from '../api/helpers'
import type { TestApp } from '../helpers/build-test-app'
import { DIALECTS } from '../helpers/dialects'
import { uploadPriceList } from '../helpers/multipart'

const ARTICLE = 'ЭИ-1002'

for (const dialect of DIALECTS) {
  describe.runIf(dialect.available)(`the exported workbook on ${dialect.name}`, () => {
    let t: TestApp
    beforeAll(async () => {
      t = await dialect.build({ ADMIN_TOKEN })
      const product = await t.app.db
        .selectFrom('product')
        .select('structureId')
        .where('article', '=', ARTICLE)
        .executeTakeFirstOrThrow()
      await t.app.db
        .insertInto('productProperty')
        .values(
          [
            ['Вес', '1,5', 'кг'],
            ['Обороты', '800', 'об/мин'],
            ['Диаметр', '1,50', 'мм'],
            ['Код серии', '007', null],
            ['Шаг', '1.5', 'мм'],
          ].map(([name, value, unit], sort) => ({
            structureId: product.structureId,
            groupName: null,
            name: name!,
            value: value!,
            unit,
            sort: 100 + sort,
          })),
        )
        .execute()
    })
    afterAll(async () => {
      await t?.close()
    })

    it('freezes and filters the header, sizes the columns and writes numbers as numbers', async () => {
      const res = await t.app.inject({ url: '/api/admin/price-list.xlsx', headers: AUTH })
      expect(res.statusCode).toBe(200)
      const workbook = new ExcelJS.Workbook()
      await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer)
      const sheet = workbook.worksheets[0]
      expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 })
      const header = (sheet.getRow(1).values as unknown[]).slice(1) as string[]
      const last = sheet.getRow(1).getCell(header.length).address.replace(/\d+$/, '')
      expect(sheet.autoFilter).toBe(`A1:${last}1`)
      header.forEach((_, i) => expect(sheet.getColumn(i + 1).width, header[i]).toBeGreaterThanOrEqual(10))
      expect(sheet.getColumn(2).width).toBeGreaterThan(sheet.getColumn(3).width!)

      let row: ExcelJS.Row | undefined
      sheet.eachRow((r) => {
        if (r.getCell(1).value === ARTICLE) row = r
      })
      const cell = (title: string) => row!.getCell(header.indexOf(title) + 1).value
      expect(typeof cell('Цена')).toBe('number')
      expect(cell('Вес, кг')).toBe(1.5)
      expect(cell('Обороты, об/мин')).toBe(800)
      expect(cell('Диаметр, мм')).toBe('1,50')
      expect(cell('Код серии')).toBe('007')
      expect(cell('Шаг, мм')).toBe('1.5')

      const preview = await uploadPriceList(t.app, AUTH, res.rawPayload)
      expect(preview.statusCode, preview.body).toBe(200)
      expect(preview.json().data).toMatchObject({ updated: 0, created: 0, refused: [] })
    })
  })
}
