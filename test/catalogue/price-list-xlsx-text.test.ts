// An XLSX price list's text arrives as the owner typed it, however long the file. exceljs decoded
// each inflated 16 KiB chunk of a part on its own, so a Cyrillic letter whose two UTF-8 bytes fell
// on either side of a chunk's edge became two U+FFFD: a 5,000-row price list lost five letters of
// its names and артикулы, different ones from file to file (server/patches/exceljs+4.4.0.patch).
import ExcelJS from 'exceljs'
import { describe, expect, it } from 'vitest'
import { readPriceList } from '../../server/catalogue/price-list/price-list-file'

async function workbookOf(rows: readonly (readonly unknown[])[], sharedStrings: boolean): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook()
  const sheet = workbook.addWorksheet('Прайс')
  for (const row of rows) sheet.addRow([...row])
  return Buffer.from(await workbook.xlsx.writeBuffer({ useSharedStrings: sharedStrings }))
}

describe('the text of a long XLSX price list', () => {
  const rows = Array.from({ length: 5000 }, (_, i) => [
    `ЭИ-${i}`,
    `Дрель ударная «Мастер» ${i} Вт, синяя`,
    `Ёмкость аккумулятора ${i % 7} А·ч — щётки`,
    i + 1,
  ])
  const expected = rows.map((row) => row.map(String))

  it.each([
    ['in shared strings', true],
    ['in the cells', false],
  ])('is read letter for letter, its text %s', async (_where, sharedStrings) => {
    const sheet = await readPriceList(
      await workbookOf([['Артикул', 'Наименование', 'Описание', 'Цена'], ...rows], sharedStrings),
    )
    expect(sheet.rows).toHaveLength(rows.length)
    const broken = sheet.rows.filter((row) => row.cells.some((cell) => cell.includes('\uFFFD')))
    expect(broken.map((row) => row.number)).toEqual([])
    expect(sheet.rows.map((row) => row.cells)).toEqual(expected)
  })
})
