// An XLSX price list leaves nothing in the temp folder. exceljs spools a sheet that comes before the
// shared strings in the archive (as Excel and exceljs save them) to a temp file, and removes it only
// once the sheet has been read through: a read that stopped early (after the first sheet, or past
// the row limit) left the file, the owner's price list, in the temp folder until the process ended.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import ExcelJS from 'exceljs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AUTH, ADMIN_TOKEN } from '../api/helpers'
import { buildTestApp, type TestApp } from '../helpers/build-test-app'
import { uploadPriceList } from '../helpers/multipart'

async function xlsxOf(sheets: readonly (readonly (readonly unknown[])[])[]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook()
  sheets.forEach((rows, i) => {
    const sheet = workbook.addWorksheet(`Лист ${i + 1}`)
    for (const row of rows) sheet.addRow([...row])
  })
  return Buffer.from(await workbook.xlsx.writeBuffer())
}

describe('an XLSX price list and the temp folder', () => {
  let t: TestApp
  let temp: string
  let before: string | undefined

  beforeAll(async () => {
    t = await buildTestApp({ ADMIN_TOKEN })
    // The temp folder of this test process only while the uploads are read (os.tmpdir() reads TMPDIR).
    temp = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrina-xlsx-temp-'))
    before = process.env.TMPDIR
    process.env.TMPDIR = temp
  })
  afterAll(async () => {
    if (before === undefined) delete process.env.TMPDIR
    else process.env.TMPDIR = before
    fs.rmSync(temp, { recursive: true, force: true })
    await t?.close()
  })

  const header = ['Артикул', 'Наименование', 'Цена']

  it('leaves nothing behind for an ordinary price list, one of two sheets, or one past the row limit', async () => {
    const files = {
      ordinary: await xlsxOf([[header, ['ЭИ-1002', 'Дрель', 100]]]),
      'two sheets': await xlsxOf([
        [header, ['ЭИ-1002', 'Дрель', 100]],
        [['Заметки'], ['не прайс-лист']],
      ]),
      'past the row limit': await xlsxOf([
        [header, ...Array.from({ length: 20_001 }, (_, i) => [`ЭИ-${i}`, `Товар ${i}`, i + 1])],
      ]),
    }
    const left: Record<string, string[]> = {}
    const statuses: Record<string, number> = {}
    for (const [name, file] of Object.entries(files)) {
      const res = await uploadPriceList(t.app, AUTH, file)
      statuses[name] = res.statusCode
      // exceljs's temp file goes by an asynchronous close and unlink once its sheet is read.
      const deadline = Date.now() + 5000
      while (fs.readdirSync(temp).length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
      left[name] = fs.readdirSync(temp)
    }
    expect(statuses).toEqual({ ordinary: 200, 'two sheets': 200, 'past the row limit': 400 })
    expect(left).toEqual({ ordinary: [], 'two sheets': [], 'past the row limit': [] })
  })
})
