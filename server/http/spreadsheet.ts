// The files the owner opens in Excel: the leads, the cookie choices and the price list (CSV and
// XLSX). One rule keeps a text cell from running as a formula (OWASP "CSV injection"): a text that
// starts with = + - @ a tab or a carriage return, after any apostrophes, gets one more apostrophe
// in front, so `=HYPERLINK(…)` from 1C is shown as text. The price list's import takes that
// apostrophe off again (readDefused), so export → import changes nothing; a text that starts with
// an apostrophe followed by anything else (`'80-е`) is written and read as it is. Numbers are
// never touched: a price stays a number.
//
// The CSV here is as Russian Excel opens it: UTF-8 with a BOM, `;` between cells, CRLF line ends,
// every cell quoted (the price list's export quotes only where it must, price-export-routes.ts).
const BOM = '\uFEFF'
const FORMULA_START = /^'*[=+\-@\t\r]/
const DEFUSED = /^'+[=+\-@\t\r]/

/**
 * A text cell that cannot run as a formula.
 *
 * @example defuseFormula('=HYPERLINK("http://evil.example/","x")') // `'=HYPERLINK("http://evil.example/","x")`
 * @example defuseFormula("'+7") // "''+7"
 * @example defuseFormula('Дрель') // 'Дрель'
 */
export function defuseFormula(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text
}

/**
 * A cell as it was before defuseFormula(): the apostrophe it added goes, any other stays.
 *
 * @example readDefused("'=1+1") // '=1+1'
 * @example readDefused("'80-е") // "'80-е"
 */
export function readDefused(text: string): string {
  return DEFUSED.test(text) ? text.slice(1) : text
}

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
  const text = value === null || value === undefined ? '' : defuseFormula(String(value))
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
