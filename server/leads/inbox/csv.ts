// CSV for spreadsheets as Russian Excel opens them: UTF-8 with a BOM, `;` between cells, CRLF
// line ends, every cell quoted. A cell that starts with = + - @ (or a tab or carriage return) gets
// a leading apostrophe, so a lead's name can never run as a formula (OWASP "CSV injection").
const BOM = '\uFEFF'
const FORMULA_START = /^[=+\-@\t\r]/

/**
 * A cell Excel must show exactly as written although it looks like a number or a formula (a phone
 * such as «+7 (912) 345-67-89»). Written as the formula `="…"`, which yields that text; only
 * digits, spaces, brackets, dots, dashes and a leading plus get in, so nothing else can run.
 */
export class LiteralText {
  static readonly ALLOWED = /^\+?[\d\s().-]{1,40}$/
  private constructor(readonly text: string) {}

  /** The literal cell when the value is one, else the value as it is (an ordinary, defused cell). */
  static of(value: unknown): unknown {
    return typeof value === 'string' && LiteralText.ALLOWED.test(value) ? new LiteralText(value) : value
  }
}

function csvCell(value: unknown): string {
  if (value instanceof LiteralText) return `"=""${value.text}"""`
  let text = value === null || value === undefined ? '' : String(value)
  if (FORMULA_START.test(text)) text = `'${text}`
  return `"${text.replace(/"/g, '""')}"`
}

type Columns = ReadonlyArray<readonly [key: string, title: string]>

/** The file's start: the BOM and the header row. */
export function csvHead(columns: Columns): string {
  return `${BOM}${columns.map(([, title]) => csvCell(title)).join(';')}\r\n`
}

/** One record's line, ending in CRLF. */
export function csvLine(columns: Columns, row: Record<string, unknown>): string {
  return `${columns.map(([key]) => csvCell(row[key])).join(';')}\r\n`
}

/** The whole file: a header row, then one row per record, each line ending in CRLF. */
export function toCsv(columns: Columns, rows: ReadonlyArray<Record<string, unknown>>): string {
  return csvHead(columns) + rows.map((row) => csvLine(columns, row)).join('')
}
