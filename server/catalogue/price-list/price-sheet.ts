// How the exported workbook lays out (price-export-routes.ts): each column's width, and which
// characteristic values become number cells. A value becomes a number only when the import reads
// that number back as the very same text (price-list-file.ts shows a number cell as Russian Excel
// does, with a decimal comma): «800» and «1,5» do, «1,50», «007» and «1.5» stay text.

/** The fixed columns before the characteristics (price-export.ts): артикул to бренд */
const FIXED_COLUMNS = 7
/** Widths in Excel's characters: артикул, наименование, цена, старая цена, наличие, раздел, бренд */
const FIXED_WIDTHS = [16, 48, 12, 14, 16, 28, 18]
const MIN_WIDTH = 10
const MAX_WIDTH = 40

/** Each column's width: the fixed columns by what they hold, a characteristic by its header. */
export function sheetColumns(header: readonly string[]): { width: number }[] {
  return header.map((title, index) => ({
    width: FIXED_WIDTHS[index] ?? Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, title.length + 2)),
  }))
}

/** A number as the import reads a number cell: «1,5», «800», «-2». */
export function numberText(value: number): string {
  return String(value).replace('.', ',')
}

const PLAIN_DECIMAL = /^-?\d{1,15}(?:,\d{1,6})?$/

/** A cell of a product row: a characteristic that is a plain decimal as a number, else as it is. */
export function sheetValue(value: string | number | null, index: number): string | number | null {
  if (index < FIXED_COLUMNS || typeof value !== 'string' || !PLAIN_DECIMAL.test(value)) return value
  const number = Number(value.replace(',', '.'))
  return Number.isFinite(number) && numberText(number) === value ? number : value
}
