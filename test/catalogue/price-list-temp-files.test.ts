// An XLSX price list leaves nothing in the temp folder. exceljs spools a sheet that comes before the
// shared strings in the archive (as Excel and exceljs save them) to a temp file, and removes it only
// once the sheet has been read through: a read that stopped early (after the first sheet, or past
// the row limit) or failed (a sheet it cannot parse) left the file, the owner's price list, in the
// temp folder until the process ended. A workbook without shared strings had every sheet spooled.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import ExcelJS from 'exceljs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AUTH, ADMIN_TOKEN } from '../api/helpers'
import { buildTestApp, type TestApp } from '../helpers/build-test-app'
import { uploadPriceList } from '../helpers/multipart'
import { buildZip, entriesOf } from '../helpers/zip'

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
    const left = await leftBehind(files)
    expect(left.statuses).toEqual({ ordinary: 200, 'two sheets': 200, 'past the row limit': 400 })
    expect(left.files).toEqual({ ordinary: [], 'two sheets': [], 'past the row limit': [] })
    // Not even for a while: the sheets are read as they stream.
    expect(left.written).toEqual({ ordinary: [], 'two sheets': [], 'past the row limit': [] })
  })

  it('leaves nothing behind for a sheet the reader cannot parse', async () => {
    const entries = await entriesOf(await xlsxOf([[header, ['ЭИ-1002', 'Дрель', 100]]]))
    // A sheet whose XML closes a row it never opened.
    const broken = buildZip(
      entries.map((entry) =>
        entry.name === 'xl/worksheets/sheet1.xml'
          ? { ...entry, data: Buffer.from(entry.data.toString().replace('</row>', '</wor>')) }
          : entry,
      ),
    )
    const left = await leftBehind({ broken })
    expect(left.statuses).toEqual({ broken: 400 })
    expect(left.files).toEqual({ broken: [] })
    expect(left.written).toEqual({ broken: [] })
  })

  it('reads a workbook saved without shared strings (its text in the cells), leaving nothing behind', async () => {
    const main = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main'
    const rel = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships'
    const text = (ref: string, value: string) => `<c r="${ref}" t="inlineStr"><is><t>${value}</t></is></c>`
    const part = (name: string, xml: string) => ({ name, data: Buffer.from(xml) })
    const file = buildZip([
      part(
        '[Content_Types].xml',
        '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
          '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
          '<Default Extension="xml" ContentType="application/xml"/>' +
          '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
          '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
          '</Types>',
      ),
      part(
        '_rels/.rels',
        `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
          `<Relationship Id="rId1" Type="${rel}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
      ),
      // The sheet first, as a generator that writes no shared strings may put it.
      part(
        'xl/worksheets/sheet1.xml',
        `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="${main}"><sheetData>` +
          `<row r="1">${text('A1', 'Артикул')}${text('B1', 'Наименование')}${text('C1', 'Цена')}</row>` +
          `<row r="2">${text('A2', 'ЭИ-1002')}${text('B2', 'Дрель')}<c r="C2"><v>100</v></c></row>` +
          '</sheetData></worksheet>',
      ),
      part(
        'xl/workbook.xml',
        `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="${main}" xmlns:r="${rel}">` +
          '<sheets><sheet name="Прайс" sheetId="1" r:id="rId1"/></sheets></workbook>',
      ),
      part(
        'xl/_rels/workbook.xml.rels',
        `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
          `<Relationship Id="rId1" Type="${rel}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
      ),
    ])
    const left = await leftBehind({ inline: file })
    expect(left.statuses).toEqual({ inline: 200 })
    expect(left.files).toEqual({ inline: [] })
    expect(left.written).toEqual({ inline: [] })
    // The row as the cells hold it: ЭИ-1002, «Дрель», 100 ₽.
    expect(left.bodies.inline.data).toMatchObject({ format: 'xlsx', rows: 1, refused: [] })
    expect(left.bodies.inline.data.sample).toEqual([
      expect.objectContaining({ number: 2, article: 'ЭИ-1002', title: 'Дрель', price: [expect.any(Number), 100] }),
    ])
  })

  /**
   * Uploads each file; its status, its answer, what was written to the temp folder while it was
   * read and what the folder holds after it.
   */
  async function leftBehind(files: Record<string, Buffer>) {
    const left: Record<string, string[]> = {}
    const statuses: Record<string, number> = {}
    const bodies: Record<string, any> = {}
    const written: Record<string, string[]> = {}
    for (const [name, file] of Object.entries(files)) {
      const seen = new Set<string>()
      const watcher = fs.watch(temp, (_event, file) => file && seen.add(file))
      const res = await uploadPriceList(t.app, AUTH, file)
      watcher.close()
      written[name] = [...seen]
      statuses[name] = res.statusCode
      bodies[name] = res.json()
      // exceljs's temp file goes by an asynchronous close and unlink once its sheet is read.
      const deadline = Date.now() + 5000
      while (fs.readdirSync(temp).length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
      left[name] = fs.readdirSync(temp)
      // Each file's own left-overs only.
      for (const file of left[name]) fs.rmSync(path.join(temp, file), { force: true })
    }
    return { statuses, files: left, bodies, written }
  }
})
