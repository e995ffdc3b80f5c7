// Leads as the owner's spreadsheet: one builder for `npm run leads -- export --format csv` (through
// the API) and the back office's «Скачать CSV» (from the database), so both give the same bytes.
// Spam kept for review is in neither.
import { formatDateTimeIn } from '../../../src/format/format-date'
import { formatRubles } from '../../../src/format/money'
import { visitTagsText } from '../../../src/lead/lead-source'
import { EXPORT_FIELDS, parseVisitTags, type ExportField } from '../store/stored-lead'
import { csvHead, csvLine, LiteralText } from '../../http/spreadsheet'

const TITLES: Readonly<Record<ExportField, string>> = {
  id: 'Номер',
  createdAt: 'Дата',
  username: 'Имя',
  phone: 'Телефон',
  email: 'E-mail',
  sourceUrl: 'Страница',
  productTitle: 'Товар',
  utm: 'Метки',
  total: 'Сумма',
  note: 'Заметка',
}
/** The lead's columns, then its lines in one cell («Товары») before the total («Сумма»). */
const LEAD_COLUMNS: ReadonlyArray<readonly [string, string]> = EXPORT_FIELDS.flatMap(
  (field): Array<readonly [string, string]> =>
    field === 'total'
      ? [
          ['lines', 'Товары'],
          [field, TITLES[field]],
        ]
      : [[field, TITLES[field]]],
)

/** A line as the API and the export read it: prices in rubles, null «по запросу». */
interface ExportLine {
  readonly title?: unknown
  readonly quantity?: unknown
  readonly sum?: unknown
}

const rublesText = (value: unknown) => (typeof value === 'number' ? formatRubles(value) : 'по запросу')

/** «Дрель ×2 = 25 980 ₽; Шуруп ×100 = по запросу» (docs/decisions/041-request-list.md). */
function linesCell(lines: unknown): string {
  if (!Array.isArray(lines)) return ''
  return (lines as ExportLine[])
    .map((line) => `${String(line.title ?? '')} ×${String(line.quantity ?? '')} = ${rublesText(line.sum)}`)
    .join('; ')
}

/** The lead fields the file is made of, in the API's and the table's names alike */
export const LEAD_FIELDS: readonly ExportField[] = EXPORT_FIELDS

/** What the export asks the model API for besides LEAD_FIELDS: the lines, as the file shows them. */
export const LEAD_LINES_SELECT = { lines: { select: { title: true, quantity: true, sum: true } } } as const

/** A lead as its CSV row shows it: the time in the site's zone, the tags on one line. */
function csvLead(row: Record<string, unknown>, timeZone: string): Record<string, unknown> {
  return {
    ...row,
    createdAt: typeof row.createdAt === 'string' ? formatDateTimeIn(row.createdAt, timeZone) : row.createdAt,
    phone: LiteralText.of(row.phone),
    utm: visitTagsText(parseVisitTags(typeof row.utm === 'string' ? row.utm : null)),
    lines: linesCell(row.lines),
    // A lead without lines has no sum; one with a line «по запросу» says so.
    total: Array.isArray(row.lines) && row.lines.length > 0 ? rublesText(row.total) : '',
  }
}

/**
 * The file as text chunks, one per page of leads read (oldest first): what the back office's
 * download streams, so memory holds one page whatever the number of leads.
 */
export async function* leadsCsvChunks(
  pages: AsyncIterable<ReadonlyArray<Record<string, unknown>>>,
  timeZone: string,
): AsyncGenerator<string> {
  yield csvHead(LEAD_COLUMNS)
  for await (const rows of pages) yield rows.map((row) => csvLine(LEAD_COLUMNS, csvLead(row, timeZone))).join('')
}
