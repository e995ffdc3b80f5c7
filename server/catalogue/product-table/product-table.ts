// The back office's «Товары» (issue 33): every product as a row, paged on the server by keyset
// (never a growing offset), sorted by any column, filtered by the same filter as «Скачать
// прайс-лист» plus the back office's search. A page's cost is its rows' and the sort's, not the
// catalogue's: no offset, and the count stops at COUNT_LIMIT. A product with variants carries them
// (variant-table.ts).
import { rublesNumber } from '../../../src/format/money'
import { sql, type Kysely, type RawBuilder } from 'kysely'
import type { Database } from '../../data/schema'
import { HttpError } from '../../http/http-error'
import { exportFilterOf, productFilter, type ExportFilter } from './product-filter'
import type { ProductRow } from '../../../src/admin/admin-products'
import type { OneCField } from '../../../src/catalogue/one-c-fields'
import { fromOneC } from './one-c-mark'
import { tableVariants } from './variant-table'

export type { ProductRow }

type Db = Kysely<Database>

export const PRODUCT_SORTS = [
  'title',
  'article',
  'section',
  'price',
  'oldPrice',
  'availability',
  'state',
  'updatedAt',
] as const
export type ProductSort = (typeof PRODUCT_SORTS)[number]

/** The count a filter shows stops here: «10000+» */
export const COUNT_LIMIT = 10_000
export const PAGE_SIZES = [25, 50, 100] as const

export interface ProductQuery extends ExportFilter {
  readonly q?: string
  readonly sort: ProductSort
  readonly desc: boolean
  readonly after: readonly [string | number, number] | null
  readonly pageSize: number
}

const bad = (field: string, message: string): never => {
  throw new HttpError(400, message, 'validation_failed', { [field]: message })
}

/** The query string of «Товары» (and of the actions «все по фильтру»); 400 for what it does not know. */
export function productQueryOf(query: Record<string, unknown>): ProductQuery {
  const text = (name: string) => (typeof query[name] === 'string' ? query[name] : undefined)
  const sort = text('sort') ?? 'title'
  if (!(PRODUCT_SORTS as readonly string[]).includes(sort)) bad('sort', 'Неизвестная сортировка')
  const pageSize = Number(text('pageSize') ?? 50)
  if (!(PAGE_SIZES as readonly number[]).includes(pageSize)) bad('pageSize', 'По 25, 50 или 100 строк')
  const q = text('q')?.trim()
  // eslint-disable-next-line no-control-regex
  if (q && (q.length > 200 || /[\u0000-\u001f\u007f]/.test(q))) bad('q', 'Поиск: до 200 символов без служебных')
  let after: ProductQuery['after'] = null
  const cursor = text('after')
  if (cursor) {
    try {
      const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown
      if (!Array.isArray(value) || value.length !== 2 || !Number.isInteger(value[1])) throw new Error('shape')
      if (typeof value[0] !== 'string' && typeof value[0] !== 'number') throw new Error('shape')
      after = [value[0], value[1] as number]
    } catch {
      bad('after', 'Неверная ссылка на страницу: откройте список заново')
    }
  }
  return {
    ...exportFilterOf(query),
    ...(q ? { q } : {}),
    sort: sort as ProductSort,
    desc: text('dir') === 'desc',
    after,
    pageSize,
  }
}

export const cursorOf = (value: string | number, id: number) =>
  Buffer.from(JSON.stringify([value, id])).toString('base64url')

function sortKey(sort: ProductSort): RawBuilder<string | number> {
  switch (sort) {
    case 'title':
      return sql<string>`${sql.ref('structure.title')}`
    case 'article':
      return sql<string>`coalesce(${sql.ref('product.article')}, '')`
    case 'section':
      return sql<string>`coalesce(${sql.ref('section.title')}, '')`
    case 'price':
      return sql<number>`coalesce(${sql.ref('product.price')}, -1)`
    case 'oldPrice':
      return sql<number>`coalesce(${sql.ref('product.oldPrice')}, -1)`
    case 'availability':
      return sql<string>`${sql.ref('product.availability')}`
    case 'state':
      return sql<number>`(case when ${sql.ref('structure.published')} = 0 then 1 when ${sql.ref('structure.status')} in (404, 410) then 2 else 0 end)`
    case 'updatedAt':
      return sql<string>`${sql.ref('structure.updatedAt')}`
  }
}

function base(db: Db) {
  return db
    .selectFrom('structure')
    .innerJoin('product', 'product.structureId', 'structure.id')
    .leftJoin('structure as section', 'section.id', 'structure.parentId')
}

/**
 * A page of «Товары», the count (up to COUNT_LIMIT) and the cursor of the next page; a product from
 * 1C carries the fields the exchange overwrites (`overwrite`, one-c-mark.ts).
 */
export async function listProducts(
  db: Db,
  query: ProductQuery,
  sections: readonly number[] | null,
  overwrite: readonly OneCField[],
) {
  const where = productFilter(query, sections)
  const key = sortKey(query.sort)
  const direction = query.desc ? 'desc' : 'asc'
  let page = base(db)
    .select([
      'structure.id',
      'structure.title',
      'structure.urlFull',
      'structure.parentId as sectionId',
      'section.title as sectionTitle',
      'structure.published',
      'structure.status',
      'structure.updatedAt',
      'product.article',
      'product.price',
      'product.oldPrice',
      'product.availability',
      'product.image',
      key.as('sortValue'),
    ])
    .where(where)
  if (query.after) {
    const [value, id] = query.after
    page = page.where((eb) =>
      eb.or([
        eb(key, query.desc ? '<' : '>', value),
        eb.and([eb(key, '=', value), eb('structure.id', query.desc ? '<' : '>', id)]),
      ]),
    )
  }
  const rows = await page
    .orderBy(key, direction)
    .orderBy('structure.id', direction)
    .limit(query.pageSize + 1)
    .execute()
  const counted = await db
    .selectFrom((eb) =>
      eb
        .selectFrom('structure')
        .innerJoin('product', 'product.structureId', 'structure.id')
        .leftJoin('structure as section', 'section.id', 'structure.parentId')
        .select('structure.id')
        .where(where)
        .limit(COUNT_LIMIT + 1)
        .as('capped'),
    )
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .executeTakeFirstOrThrow()
  const shown = rows.slice(0, query.pageSize)
  const last = shown.at(-1)
  const shownIds = shown.map((row) => row.id)
  const oneC = await fromOneC(db, shownIds)
  // The page's variants in one statement, never a statement a row.
  const variants = await tableVariants(db, shownIds, oneC, overwrite)
  return {
    data: shown.map((row): ProductRow => ({
      id: row.id,
      title: row.title,
      urlFull: row.urlFull,
      article: row.article,
      sectionId: row.sectionId,
      sectionTitle: row.sectionTitle,
      price: row.price === null ? null : rublesNumber(row.price),
      oldPrice: row.oldPrice === null ? null : rublesNumber(row.oldPrice),
      availability: row.availability,
      state: !row.published ? 'draft' : row.status === 404 || row.status === 410 ? 'withdrawn' : 'published',
      image: row.image,
      updatedAt: row.updatedAt,
      oneC: oneC.has(row.id) ? overwrite : null,
      variants: variants.get(row.id) ?? [],
    })),
    total: Math.min(Number(counted.count), COUNT_LIMIT),
    totalOver: Number(counted.count) > COUNT_LIMIT,
    next: rows.length > query.pageSize && last ? cursorOf(last.sortValue, last.id) : null,
  }
}

/** The ids of every product a filter matches (the actions' «все N по фильтру»), at most `limit`. */
export async function productIds(
  db: Db,
  filter: ExportFilter & { q?: string },
  sections: readonly number[] | null,
  limit: number,
) {
  const rows = await base(db)
    .select('structure.id')
    .where(productFilter(filter, sections))
    .orderBy('structure.id')
    .limit(limit)
    .execute()
  return rows.map((row) => row.id)
}
