// A price list's bytes as a table of text cells: CSV as Excel saves it in Russia (`;`-separated,
// UTF-8 with or without a BOM, or Windows-1251; quoted fields) or an XLSX workbook (its first
// sheet). Row numbers are the ones the owner sees in Excel: the header is row 1. A cell the export
// defused (`'=HYPERLINK(…)`, http/spreadsheet.ts) is read back to its value, so export → import
// changes nothing.
import { Readable } from 'node:stream'
import { parse } from 'csv-parse'
import iconv from 'iconv-lite'
import { HttpError } from '../../http/http-error'
import { readDefused } from '../../http/spreadsheet'
import { checkZip, entriesInOrder, storedEntry, ZipRefused, type ZipEntryInfo } from '../bounded-zip'
import { numberText } from './price-sheet'

/** What one file may hold: a bigger catalogue is imported in parts */
export const PRICE_LIST_LIMITS = Object.freeze({ maxBytes: 10 * 1024 * 1024, maxRows: 20_000, maxColumns: 200 })

export interface SheetRow {
  /** The row's number in the file (the header is 1) */
  readonly number: number
  readonly cells: readonly string[]
}

export interface Sheet {
  readonly header: readonly string[]
  readonly rows: readonly SheetRow[]
  readonly format: 'csv' | 'xlsx'
  /** How a CSV's bytes were read */
  readonly encoding?: 'utf-8' | 'windows-1251'
}

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04]
const UTF8_BOM = [0xef, 0xbb, 0xbf]

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return prefix.every((byte, i) => bytes[i] === byte)
}

/** A 400 with the Russian `message`; `cause`, what the reader said, goes to the log (not to the owner). */
function refuse(message: string, cause?: unknown): never {
  const error = new HttpError(400, message, 'invalid_price_list', { file: message })
  if (cause !== undefined) error.cause = cause
  throw error
}

/** Reads a price list; throws HttpError 400 with a Russian message for a file it cannot read. */
export async function readPriceList(bytes: Buffer): Promise<Sheet> {
  if (bytes.length === 0) refuse('Файл пуст')
  if (bytes.length > PRICE_LIST_LIMITS.maxBytes) refuse('Файл больше 10 МБ: разделите прайс-лист на части')
  const sheet = startsWith(bytes, ZIP_MAGIC) ? await readXlsx(bytes) : await readCsv(bytes)
  if (sheet.header.every((cell) => cell === '')) refuse('В первой строке файла нет заголовков столбцов')
  return sheet
}

/** UTF-8 when the bytes are valid UTF-8 (Excel's «CSV UTF-8» adds a BOM), else Windows-1251. */
function decodeText(bytes: Buffer): { text: string; encoding: 'utf-8' | 'windows-1251' } {
  if (startsWith(bytes, UTF8_BOM)) return { text: bytes.subarray(3).toString('utf8'), encoding: 'utf-8' }
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), encoding: 'utf-8' }
  } catch {
    return { text: iconv.decode(bytes, 'win1251'), encoding: 'windows-1251' }
  }
}

/** `;` as Russian Excel writes, unless the header line plainly uses tabs or commas instead. */
function delimiterOf(text: string): string {
  const firstLine = text.slice(0, text.search(/\r?\n|$/))
  const count = (ch: string) => firstLine.split(ch).length - 1
  const candidates = [';', '\t', ','].map((ch) => ({ ch, n: count(ch) }))
  const best = candidates.reduce((a, b) => (b.n > a.n ? b : a))
  return best.n > 0 ? best.ch : ';'
}

/** Characters of CSV text parsed between two yields of the event loop */
const CSV_SLICE = 64 * 1024

async function* slices(text: string): AsyncGenerator<string> {
  for (let at = 0; at < text.length; at += CSV_SLICE) {
    if (at > 0) await new Promise((resolve) => setImmediate(resolve))
    yield text.slice(at, at + CSV_SLICE)
  }
}

async function readCsv(bytes: Buffer): Promise<Sheet> {
  const { text, encoding } = decodeText(bytes)
  const records: string[][] = []
  try {
    // Parsed a slice at a time: a 10 MB file does not hold the event loop.
    const parser = Readable.from(slices(text)).pipe(
      parse({
        delimiter: delimiterOf(text),
        relax_column_count: true,
        relax_quotes: true,
        skip_empty_lines: false,
        to_line: PRICE_LIST_LIMITS.maxRows + 2,
      }),
    )
    for await (const record of parser) records.push(record as string[])
  } catch (error) {
    const line = (error as { lines?: number }).lines
    refuse(`Не удалось прочитать CSV${line ? ` (строка ${line})` : ''}: проверьте кавычки и разделители`)
  }
  return toSheet(records, 'csv', encoding)
}

/** What an XLSX may unpack to: 20,000 rows of a price list are a few MB of XML */
export const XLSX_LIMITS = Object.freeze({ maxEntries: 1000, maxBytes: 64 * 1024 * 1024 })

/** A sheet's part, as exceljs finds it: handed over after every other part (below) */
const WORKSHEET = /^xl\/worksheets\/sheet\d+\.xml$/
/** An empty shared-strings part, for a workbook saved without one (its text in the cells) */
const NO_SHARED_STRINGS = Buffer.from(
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
    '<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="0" uniqueCount="0"/>',
)

async function readXlsx(bytes: Buffer): Promise<Sheet> {
  const broken = 'Не удалось прочитать файл Excel: сохраните его как .xlsx или CSV'
  // The archive is checked by its directory and its actual sizes before exceljs reads it (a 64 KB
  // file used to unpack to 400 MB in one block of the event loop): bounded-zip.ts.
  let entries: ZipEntryInfo[]
  try {
    entries = await checkZip(bytes, XLSX_LIMITS)
  } catch (error) {
    if (!(error instanceof ZipRefused)) throw error
    if (error.problem === 'broken') refuse(broken)
    throw new HttpError(
      413,
      error.problem === 'entries'
        ? `В файле Excel больше ${XLSX_LIMITS.maxEntries} частей: сохраните прайс-лист заново или как CSV`
        : `Файл Excel распаковывается больше чем в ${XLSX_LIMITS.maxBytes / 1024 / 1024} МБ: сохраните в нём только лист с прайс-листом или сохраните его как CSV`,
      'file_too_large',
      { file: 'Файл слишком велик в распакованном виде' },
    )
  }
  const names = new Set(entries.map((entry) => entry.name))
  if (!names.has('xl/workbook.xml') || !names.has('xl/_rels/workbook.xml.rels')) refuse(broken)
  // exceljs reads a sheet as it streams only once it has read the workbook, its relations and the
  // shared strings; a sheet before them (as Excel and exceljs save them) it spools to a temp file
  // and removes once the sheet is read through, so a read that stopped early or failed left the
  // owner's price list in the temp folder. It is given every other part first, with an empty
  // shared-strings part where the workbook has none: nothing is spooled.
  const pieces = entriesInOrder(bytes, [
    ...entries.filter((entry) => !WORKSHEET.test(entry.name)),
    ...entries.filter((entry) => WORKSHEET.test(entry.name)),
  ])
  if (!names.has('xl/sharedStrings.xml')) pieces.unshift(storedEntry('xl/sharedStrings.xml', NO_SHARED_STRINGS))
  // exceljs and its dependencies cost most of a second to load: only an XLSX upload pays it.
  const { default: ExcelJS } = await import('exceljs')
  const input = Readable.from(pieces)
  const records: string[][] = []
  let tooLong = false
  let sheets = 0
  try {
    const reader = new ExcelJS.stream.xlsx.WorkbookReader(input, {
      sharedStrings: 'cache',
      styles: 'cache',
      hyperlinks: 'ignore',
      worksheets: 'emit',
      entries: 'ignore',
    })
    // The first sheet, row by row, up to the row limit.
    read: for await (const worksheet of reader) {
      sheets++
      for await (const row of worksheet) {
        if (row.number > PRICE_LIST_LIMITS.maxRows + 1) {
          tooLong = true
          break read
        }
        const values = row.values as unknown[]
        const cells: string[] = []
        for (let i = 1; i < values.length && i <= PRICE_LIST_LIMITS.maxColumns + 1; i++) {
          cells.push(cellText(values[i]))
        }
        records[row.number - 1] = cells
      }
      break
    }
  } catch (error) {
    refuse(broken, error)
  } finally {
    input.destroy()
  }
  if (tooLong) refuse(`В файле больше ${PRICE_LIST_LIMITS.maxRows} строк: разделите прайс-лист на части`)
  if (sheets === 0) refuse('В файле Excel нет листов')
  for (let i = 0; i < records.length; i++) records[i] ??= []
  return toSheet(records, 'xlsx')
}

/**
 * An Excel cell as the text the owner sees: a number as Russian Excel shows it, with a decimal
 * comma (the export writes «1,5» as the number 1.5: price-sheet.ts); a formula by its result.
 */
function cellText(value: unknown): string {
  if (value === null || value === undefined) return ''
  if (typeof value === 'string') return value
  if (typeof value === 'number') return numberText(value)
  if (typeof value === 'boolean') return String(value)
  if (value instanceof Date) return value.toISOString().slice(0, 10)
  if (typeof value === 'object') {
    const v = value as { result?: unknown; text?: unknown; richText?: Array<{ text: string }>; error?: unknown }
    if (Array.isArray(v.richText)) return v.richText.map((part) => part.text).join('')
    if ('result' in v) return cellText(v.result)
    if (v.text !== undefined) return cellText(v.text)
    if (v.error !== undefined) return ''
  }
  return ''
}

function toSheet(records: string[][], format: Sheet['format'], encoding?: Sheet['encoding']): Sheet {
  if (records.length === 0) refuse('Файл пуст')
  if (records.length > PRICE_LIST_LIMITS.maxRows + 1) {
    refuse(`В файле больше ${PRICE_LIST_LIMITS.maxRows} строк: разделите прайс-лист на части`)
  }
  const [header, ...rest] = records
  if (header.length > PRICE_LIST_LIMITS.maxColumns) refuse(`В файле больше ${PRICE_LIST_LIMITS.maxColumns} столбцов`)
  const read = (cell: string) => readDefused(cell.trim())
  const rows = rest
    .map((cells, i) => ({ number: i + 2, cells: cells.map(read) }))
    .filter((row) => row.cells.some((cell) => cell !== ''))
  return { header: header.map(read), rows, format, encoding }
}
