// Leads as the owner's spreadsheet: one builder for `npm run leads -- export --format csv` (through
// the API) and the back office's «Скачать CSV» (from the database), so both give the same bytes.
// Spam kept for review is in neither.
import { formatDateTimeIn } from '../../../src/format/format-date'
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
}
const LEAD_COLUMNS = EXPORT_FIELDS.map((field) => [field, TITLES[field]] as const)

/** The lead fields the file is made of, in the API's and the table's names alike */
export const LEAD_FIELDS: readonly ExportField[] = EXPORT_FIELDS

/** A lead as its CSV row shows it: the time in the site's zone, the tags on one line. */
function csvLead(row: Record<string, unknown>, timeZone: string): Record<string, unknown> {
  return {
    ...row,
    createdAt: typeof row.createdAt === 'string' ? formatDateTimeIn(row.createdAt, timeZone) : row.createdAt,
    phone: LiteralText.of(row.phone),
    utm: visitTagsText(parseVisitTags(typeof row.utm === 'string' ? row.utm : null)),
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
