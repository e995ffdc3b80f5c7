// The products the back office's «Товары» shows and its price list exports (issue 33): the filter
// in a query string (section with its subsections, availability, visibility, «без фото», «без
// цены», «без описания», the search) and the same filter as a condition on structure × product.
import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from 'kysely'
import type { Availability, Database } from '../../data/schema'
import { HttpError } from '../../http/http-error'
import { articleKey, tokensOf } from '../search/search-text'

type Db = Kysely<Database>
type Eb = ExpressionBuilder<any, any>

export const FILTER_AVAILABILITY: readonly Availability[] = ['in_stock', 'on_order', 'out_of_stock']

/** The «Товары» screen's filters; none is the whole catalogue. */
export interface ExportFilter {
  /** The back office's search: words of the title or the артикул */
  readonly q?: string
  /** A section: its products and those of its subsections */
  readonly section?: number
  readonly availability?: Availability
  readonly state?: 'published' | 'draft' | 'withdrawn'
  readonly noPhoto?: boolean
  readonly noPrice?: boolean
  readonly noDescription?: boolean
}

const bad = (field: string, message: string): never => {
  throw new HttpError(400, message, 'validation_failed', { [field]: message })
}

/** The filter from a query string; 400 with a Russian message for a value it does not know. */
export function exportFilterOf(query: Record<string, unknown>): ExportFilter {
  const q = typeof query.q === 'string' ? query.q.trim() : ''
  // eslint-disable-next-line no-control-regex
  if (q.length > 200 || /[\u0000-\u001f\u007f]/.test(q)) bad('q', 'Поиск: до 200 символов без служебных')
  const text = (name: string) => {
    const value = query[name]
    if (value === undefined || value === '') return undefined
    if (typeof value !== 'string') return bad(name, 'Параметр указан дважды')
    return value
  }
  const yes = (name: string) => {
    const value = text(name)
    if (value === undefined) return undefined
    if (value !== '1' && value !== 'true') return bad(name, 'Ожидается 1')
    return true
  }
  const section = text('section')
  if (section !== undefined && !/^[1-9]\d{0,9}$/.test(section)) bad('section', 'Раздел: ожидается номер записи')
  const availability = text('avail')
  if (availability !== undefined && !FILTER_AVAILABILITY.includes(availability as Availability)) {
    bad('avail', 'Наличие: in_stock, on_order или out_of_stock')
  }
  const state = text('state')
  if (state !== undefined && state !== 'published' && state !== 'draft' && state !== 'withdrawn') {
    bad('state', 'Видимость: published, draft или withdrawn')
  }
  return {
    ...(q ? { q } : {}),
    ...(section ? { section: Number(section) } : {}),
    ...(availability ? { availability: availability as Availability } : {}),
    ...(state ? { state: state as ExportFilter['state'] } : {}),
    ...(yes('noPhoto') ? { noPhoto: true } : {}),
    ...(yes('noPrice') ? { noPrice: true } : {}),
    ...(yes('noDescription') ? { noDescription: true } : {}),
  }
}

/** The ids of a section and every section under it (null: no filter by section). */
export async function sectionIds(db: Db, section: number | undefined): Promise<number[] | null> {
  if (section === undefined) return null
  const ids = new Set([section])
  for (let frontier = [section]; frontier.length > 0 && ids.size < 100_000;) {
    const children = await db
      .selectFrom('structure')
      .select('id')
      .where('parentId', 'in', frontier.slice(0, 5000))
      .where('typeId', '<>', 'product')
      .execute()
    frontier = children.map((c) => c.id).filter((id) => !ids.has(id))
    for (const id of frontier) ids.add(id)
  }
  return [...ids]
}

/** The search: every word of `q` starts a word of the title or артикул, or `q` is in an артикул. */
function searchCondition(eb: Eb, q: string): Expression<SqlBool> {
  const tokens = tokensOf(q).slice(0, 8)
  const key = articleKey(q)
  const escape = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`)
  const words = tokens.map(
    (token) => sql<SqlBool>`(' ' || ${sql.ref('searchIndex.name')}) like ${`% ${escape(token)}%`} escape '\\'`,
  )
  const byArticle = key
    ? [sql<SqlBool>`${sql.ref('searchIndex.articleKey')} like ${`%${escape(key)}%`} escape '\\'`]
    : []
  const found = eb
    .selectFrom('searchIndex')
    .select('searchIndex.structureId')
    .where((inner) => inner.or([...(words.length > 0 ? [inner.and(words)] : []), ...byArticle]))
  return eb('structure.id', 'in', found)
}

/** The products of a query: the filter's conditions on structure × product (× the section). */
export function productFilter(filter: ExportFilter, sections: readonly number[] | null) {
  return (eb: Eb): Expression<SqlBool> => {
    const all: Expression<SqlBool>[] = [eb('structure.typeId', '=', 'product')]
    if (sections) all.push(eb('structure.parentId', 'in', sections))
    if (filter.availability) all.push(eb('product.availability', '=', filter.availability))
    if (filter.state === 'draft') all.push(eb('structure.published', '=', 0))
    if (filter.state === 'withdrawn') all.push(eb('structure.status', 'in', [404, 410]))
    if (filter.state === 'published') all.push(eb('structure.published', '=', 1), eb('structure.status', 'is', null))
    if (filter.noPhoto) all.push(eb('product.image', 'is', null))
    if (filter.noPrice) all.push(eb('product.price', 'is', null))
    if (filter.noDescription)
      all.push(eb.or([eb('product.description', 'is', null), eb('product.description', '=', '')]))
    if (filter.q) all.push(searchCondition(eb, filter.q))
    return eb.and(all)
  }
}
