// CSV for spreadsheets as Russian Excel opens them: UTF-8 with a BOM, `;` between cells, CRLF
// line ends, every cell quoted. A cell that starts with = + - @ (or a tab or carriage return) gets
// a leading apostrophe, so a lead's name can never run as a formula (OWASP "CSV injection").
const BOM = '\uFEFF'
const FORMULA_START = /^[=+\-@\t\r]/

export function csvCell(value: unknown): string {
  let text = value === null || value === undefined ? '' : String(value)
  if (FORMULA_START.test(text)) text = `'${text}`
  return `"${text.replace(/"/g, '""')}"`
}

/** The whole file: a header row, then one row per record, each line ending in CRLF. */
export function toCsv(
  columns: ReadonlyArray<readonly [key: string, title: string]>,
  rows: ReadonlyArray<Record<string, unknown>>,
): string {
  const lines = [columns.map(([, title]) => csvCell(title)).join(';')]
  for (const row of rows) lines.push(columns.map(([key]) => csvCell(row[key])).join(';'))
  return `${BOM}${lines.map((line) => `${line}\r\n`).join('')}`
}
