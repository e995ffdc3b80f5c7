// «Скачать прайс-лист» (issue 33, docs/decisions/029-price-list-and-feeds.md): today's catalogue as
// a file in exactly the columns the price list's import reads (Артикул, Наименование, Цена, Старая
// цена, Наличие, Раздел, Бренд, then one column per characteristic, «Имя, единица»), so a file
// exported, edited in Excel and uploaded again changes exactly what was edited. XLSX or CSV as
// Russian Excel opens it (`;`, UTF-8 with a BOM). Streamed: the products are read a page at a time
// by id, so the cost in memory does not grow with the catalogue. Products without an артикул are
// left out: the import finds products by it.
import type { Expression, ExpressionBuilder, Kysely, SqlBool } from 'kysely'
import type { Availability, Database } from '../../data/schema'
import { HttpError } from '../../http/http-error'
import { loadSectionTree } from '../catalogue-sections'
import { PRICE_LIST_LIMITS } from './price-list-file'

type Db = Kysely<Database>

const PAGE = 1000

export const EXPORT_AVAILABILITY: Readonly<Record<Availability, string>> = {
  in_stock: 'В наличии',
  on_order: 'Под заказ',
  out_of_stock: 'Нет в наличии',
}

/** What the export takes: the «Товары» screen's filters; none is the whole catalogue. */
export interface ExportFilter {
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
  if (availability !== undefined && !(availability in EXPORT_AVAILABILITY)) {
    bad('avail', 'Наличие: in_stock, on_order или out_of_stock')
  }
  const state = text('state')
  if (state !== undefined && state !== 'published' && state !== 'draft' && state !== 'withdrawn') {
    bad('state', 'Видимость: published, draft или withdrawn')
  }
  return {
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

type Eb = ExpressionBuilder<Database, 'structure' | 'product'>

function conditions(filter: ExportFilter, sections: number[] | null) {
  return (eb: Eb): Expression<SqlBool> => {
    const all: Expression<SqlBool>[] = [
      eb('structure.typeId', '=', 'product'),
      eb('product.article', 'is not', null),
      eb('product.article', '<>', ''),
    ]
    if (sections) all.push(eb('structure.parentId', 'in', sections))
    if (filter.availability) all.push(eb('product.availability', '=', filter.availability))
    if (filter.state === 'draft') all.push(eb('structure.published', '=', 0))
    if (filter.state === 'withdrawn') all.push(eb('structure.status', 'in', [404, 410]))
    if (filter.state === 'published') {
      all.push(eb('structure.published', '=', 1), eb('structure.status', 'is', null))
    }
    if (filter.noPhoto) all.push(eb('product.image', 'is', null))
    if (filter.noPrice) all.push(eb('product.price', 'is', null))
    if (filter.noDescription)
      all.push(eb.or([eb('product.description', 'is', null), eb('product.description', '=', '')]))
    return eb.and(all)
  }
}

export interface ExportColumns {
  readonly header: readonly string[]
  /** Characteristics' columns: name and unit, in header order */
  readonly properties: readonly { readonly name: string; readonly unit: string | null }[]
}

/** The rows of the export, a page at a time: each row's cells as the columns say. */
export async function* exportRows(
  db: Db,
  filter: ExportFilter,
): AsyncGenerator<{ columns: ExportColumns } | { cells: (string | number | null)[] }> {
  const sections = await sectionIds(db, filter.section)
  const where = conditions(filter, sections)
  // Characteristics: one column per name and unit, the most used first (the import matches a
  // column to the characteristic of that name in that unit, so a product's own unit survives).
  const used = await db
    .selectFrom('productProperty')
    .innerJoin('structure', 'structure.id', 'productProperty.structureId')
    .innerJoin('product', 'product.structureId', 'structure.id')
    .select((eb) => ['productProperty.name', 'productProperty.unit', eb.fn.countAll<number | string>().as('uses')])
    .where(where)
    .groupBy(['productProperty.name', 'productProperty.unit'])
    .execute()
  const fixed = ['Артикул', 'Наименование', 'Цена', 'Старая цена', 'Наличие', 'Раздел', 'Бренд']
  const properties = used
    .map((row) => ({ name: row.name, unit: row.unit || null, uses: Number(row.uses) }))
    .sort((a, b) => b.uses - a.uses || a.name.localeCompare(b.name, 'ru'))
    .slice(0, PRICE_LIST_LIMITS.maxColumns - fixed.length)
    .map(({ name, unit }) => ({ name, unit }))
  const header = [...fixed, ...properties.map((p) => (p.unit ? `${p.name}, ${p.unit}` : p.name))]
  yield { columns: { header, properties } }

  // A section by its title when no other section has it, else by its URL: what the import finds.
  const { sections: all } = await loadSectionTree(db)
  const titles = new Map<string, number>()
  for (const s of all) titles.set(s.title.trim().toLowerCase(), (titles.get(s.title.trim().toLowerCase()) ?? 0) + 1)
  const sectionLabel = new Map(
    all.map((s) => [s.id, titles.get(s.title.trim().toLowerCase()) === 1 ? s.title : s.urlFull]),
  )
  const column = new Map(properties.map((p, i) => [`${p.name}\u0000${p.unit ?? ''}`, i]))

  for (let after = 0; ;) {
    const page = await db
      .selectFrom('structure')
      .innerJoin('product', 'product.structureId', 'structure.id')
      .select([
        'structure.id',
        'structure.title',
        'structure.parentId',
        'product.article',
        'product.price',
        'product.oldPrice',
        'product.availability',
        'product.vendor',
      ])
      .where(where)
      .where('structure.id', '>', after)
      .orderBy('structure.id')
      .limit(PAGE)
      .execute()
    if (page.length === 0) return
    const props = await db
      .selectFrom('productProperty')
      .select(['structureId', 'name', 'value', 'unit'])
      .where(
        'structureId',
        'in',
        page.map((p) => p.id),
      )
      .orderBy('sort')
      .orderBy('id')
      .execute()
    const valuesOf = new Map<number, (string | null)[]>()
    for (const p of props) {
      const index = column.get(`${p.name}\u0000${p.unit || ''}`)
      if (index === undefined) continue
      const values = valuesOf.get(p.structureId) ?? new Array<string | null>(properties.length).fill(null)
      values[index] ??= p.value
      valuesOf.set(p.structureId, values)
    }
    for (const product of page) {
      yield {
        cells: [
          product.article,
          product.title,
          product.price,
          product.oldPrice,
          EXPORT_AVAILABILITY[product.availability],
          product.parentId === null ? null : (sectionLabel.get(product.parentId) ?? null),
          product.vendor,
          ...(valuesOf.get(product.id) ?? new Array<string | null>(properties.length).fill(null)),
        ],
      }
    }
    after = page[page.length - 1].id
    // The other requests go first between pages.
    await new Promise((resolve) => setImmediate(resolve))
  }
}
