// The catalogue's listing queries (docs/decisions/031-sections-and-scale.md): one page of a
// section's products (sorted, filtered), the home page's featured products, and the sitemap read
// in pages. Split from structure-store.ts (which owns every other query on `structure` and its
// parts) to keep each file small; like it, the only place these tables' listings are written in SQL.
// Each query reads at most the rows its page shows, by index; the count reads the section's
// products through the (parentId, sort) index, never the catalogue.
import { sql, type Kysely, type SelectQueryBuilder, type Transaction } from 'kysely'
import { byteOrder, isSqlite } from '../../data/sql/dialect'
import { preparedQuery, slot } from '../../data/prepared'
import type { Availability, Database } from '../../data/schema'
import type { SectionQuery } from '../../../src/site/section-query'
import { isPublicRecord } from '../../content/visibility'

type Queryable = Kysely<Database> | Transaction<Database>

/** A product as a card shows it, with what the card needs to route to it. */
export interface ListedProduct {
  id: number
  title: string
  urlFull: string
}

/** A featured product with its card's fields, read with its row: no second query for them. */
export interface FeaturedProduct extends ListedProduct {
  image: string | null
  article: string | null
  price: number | null
  oldPrice: number | null
  availability: Availability
}

/** What a product card shows, read with the product's row (the featured products, search results). */
export const CARD_COLUMNS = [
  'structure.id',
  'structure.title',
  'structure.urlFull',
  'product.image',
  'product.article',
  'product.price',
  'product.oldPrice',
  'product.availability',
] as const

/**
 * What changes a section list's SQL text: the order, which filters are set, and the filters by
 * characteristic (`v<number of values>` and `r<min set><max set>` each, in the query's order).
 */
function listShape(query: SectionQuery): string {
  return `${query.sort ?? ''}|${query.avail === null ? '' : 'a'}${query.min === null ? '' : 'n'}${query.max === null ? '' : 'x'}|${characteristicShape(query)}`
}

export function characteristicShape(query: SectionQuery): string {
  return [
    ...query.values.map((f) => `${f.brand ? 'b' : 'v'}${f.values.length}`),
    ...query.ranges.map((r) => `r${r.min === null ? 0 : 1}${r.max === null ? 0 : 1}`),
  ].join(',')
}

/** Whether the list reads the product table: for a filter of its own, the brand or the price order only. */
function readsProduct(shape: string): boolean {
  const [, own, characteristics] = shape.split('|')
  return shape.startsWith('price') || own !== '' || /(^|,)b/.test(characteristics ?? '')
}

/**
 * The filters by characteristic of a shape's last part, as EXISTS of the product's row of each
 * (the facet index: characteristic, product), with slots `fc<k>`, `fv<k>_<j>`, `rc<k>`, `rn<k>`, `rx<k>`;
 * the brand's (`b<n>`) as the product row's own column, which the list then joins.
 */
export function byCharacteristics<O>(
  db: Queryable,
  q: SelectQueryBuilder<Database, 'structure' | 'product', O>,
  part: string,
) {
  // PostgreSQL would turn each EXISTS into a semi join that may read the characteristic's rows
  // across the catalogue (a range of power is a third of them): an OFFSET keeps it a probe of the
  // facet index per product of the section, so the cost follows the section. SQLite probes anyway.
  const perProduct = !isSqlite(db)
  let k = 0
  for (const filter of part === '' ? [] : part.split(',')) {
    const n = k++
    if (filter.startsWith('b')) {
      const values = Array.from({ length: Number(filter.slice(1)) }, (_, j) => slot<string>(`fv${n}_${j}`))
      q = q.where('product.vendor', 'in', values)
      continue
    }
    q = q.where((eb) =>
      eb.exists(() => {
        const row = eb
          .selectFrom('productProperty as pf')
          .select(sql`1`.as('one'))
          .whereRef('pf.structureId', '=', 'structure.id')
          .$if(perProduct, (s) => s.modifyEnd(sql`offset 0`))
        if (filter.startsWith('v')) {
          const values = Array.from({ length: Number(filter.slice(1)) }, (_, j) => slot<string>(`fv${n}_${j}`))
          return row.where('pf.characteristicId', '=', slot<number>(`fc${n}`)).where('pf.value', 'in', values)
        }
        let ranged = row.where('pf.characteristicId', '=', slot<number>(`rc${n}`))
        if (filter[1] === '1') ranged = ranged.where('pf.numValue', '>=', slot<number>(`rn${n}`))
        if (filter[2] === '1') ranged = ranged.where('pf.numValue', '<=', slot<number>(`rx${n}`))
        return ranged.where('pf.numValue', 'is not', null)
      }),
    )
  }
  return q
}

/** The slots' values of the query's filters by characteristic (as byCharacteristics names them). */
export function characteristicValues(query: SectionQuery): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  let k = 0
  for (const f of query.values) {
    out[`fc${k}`] = f.id
    f.values.forEach((value, j) => (out[`fv${k}_${j}`] = value))
    k++
  }
  for (const r of query.ranges) {
    Object.assign(out, { [`rc${k}`]: r.id, [`rn${k}`]: r.min, [`rx${k}`]: r.max })
    k++
  }
  return out
}

/**
 * The public products directly under the section, narrowed by the shape's filters, with slots for
 * the section and the filters' values (server/data/prepared.ts). The product table is joined only
 * when the shape reads it or the caller does: every product record has its product row.
 */
export function sectionProducts(db: Queryable, shape: string, withProduct = false) {
  const [, filters, characteristics] = shape.split('|')
  let q =
    withProduct || readsProduct(shape)
      ? db.selectFrom('structure').innerJoin('product', 'product.structureId', 'structure.id')
      : // The same scope for the type checker; no product column is read without the join.
        (db.selectFrom('structure') as unknown as SelectQueryBuilder<Database, 'structure' | 'product', object>)
  q = q
    .where('structure.parentId', '=', slot<number>('section'))
    .where('structure.typeId', '=', 'product')
    .where(isPublicRecord)
  if (filters.includes('a')) q = q.where('product.availability', '=', slot<Availability>('avail'))
  if (filters.includes('n')) q = q.where('product.price', '>=', slot<number>('min'))
  if (filters.includes('x')) q = q.where('product.price', '<=', slot<number>('max'))
  return byCharacteristics(db, q, characteristics ?? '')
}

function ordered<O>(db: Queryable, q: SelectQueryBuilder<Database, 'structure' | 'product', O>, sort: string) {
  switch (sort) {
    case 'price':
    case 'price-desc':
      // No price sorts last either way («Цена по запросу»); ties by id, so paging is stable.
      return q
        .orderBy(sql`case when ${sql.ref('product.price')} is null then 1 else 0 end`)
        .orderBy('product.price', sort === 'price' ? 'asc' : 'desc')
        .orderBy('structure.id')
    case 'name':
      // Code point order on both databases (PostgreSQL's collation would differ from SQLite's).
      return q.orderBy(byteOrder(db, 'structure.title')).orderBy('structure.id')
    default:
      return q.orderBy('structure.sort').orderBy('structure.id')
  }
}

const countQuery = preparedQuery<{ count: number | string | bigint }, ListValues>((db, shape) =>
  sectionProducts(db, shape).select((eb) => eb.fn.countAll<number | string | bigint>().as('count')),
)

const pageQuery = preparedQuery<ListedProduct, ListValues & { limit: number; offset: number }>((db, shape) =>
  ordered(
    db,
    sectionProducts(db, shape).select(['structure.id', 'structure.title', 'structure.urlFull']),
    shape.split('|')[0],
  )
    .limit(slot<number>('limit'))
    .offset(slot<number>('offset')),
)

type ListValues = { section: number; avail: Availability | null; min: number | null; max: number | null }

export function listValues(sectionId: number, query: SectionQuery): ListValues {
  // The filter is in whole rubles; prices are kept in kopecks.
  const kopecks = (rubles: number | null) => (rubles === null ? null : rubles * 100)
  return {
    section: sectionId,
    avail: query.avail,
    min: kopecks(query.min),
    max: kopecks(query.max),
    ...characteristicValues(query),
  }
}

/** How many products the section shows with this query's filters. */
export async function countSectionProducts(db: Queryable, sectionId: number, query: SectionQuery): Promise<number> {
  // The order does not change a count: one shape per set of filters.
  const [row] = await countQuery(db, listShape({ ...query, sort: null }), listValues(sectionId, query))
  return Number(row.count)
}

/** One page of the section's products in the query's order. */
export async function loadSectionProducts(
  db: Queryable,
  sectionId: number,
  query: SectionQuery,
  pageSize: number,
): Promise<ListedProduct[]> {
  return pageQuery(db, listShape(query), {
    ...listValues(sectionId, query),
    limit: pageSize,
    offset: (query.page - 1) * pageSize,
  })
}

// From the few featured rows (their index), never the catalogue: a cross join keeps SQLite's
// planner to this order (with an inner join it walked every product by the typeId index);
// PostgreSQL plans it as the inner join it is. Built once (the home page asks it on every rendering).
const featuredQuery = preparedQuery<FeaturedProduct, { limit: number }>((db) =>
  db
    .selectFrom('product')
    .crossJoin('structure')
    .whereRef('structure.id', '=', 'product.structureId')
    .select(CARD_COLUMNS)
    .where('product.featured', '=', 1)
    .where('structure.typeId', '=', 'product')
    .where((eb) => isPublicRecord(eb, 'structure'))
    .orderBy('structure.sort')
    .orderBy('structure.id')
    .limit(slot<number>('limit')),
)

/** Up to `limit` public featured products under any record, in tree order (sort, id). */
export async function loadFeaturedProducts(db: Queryable, limit: number): Promise<FeaturedProduct[]> {
  return featuredQuery(db, 'featured', { limit })
}

/** A sitemap row: a public page's URL, when it last changed and its robots directive. */
export interface SitemapRow {
  id: number
  urlFull: string
  updatedAt: string
  metaRobots: string | null
}

/**
 * Public records in id order, `limit` after `afterId` (keyset: each batch reads only its rows).
 * The sitemap streams through these, never holding the catalogue in memory.
 */
export async function loadSitemapBatch(db: Queryable, afterId: number, limit: number): Promise<SitemapRow[]> {
  return db
    .selectFrom('structure')
    .select(['id', 'urlFull', 'updatedAt', 'metaRobots'])
    .where('id', '>', afterId)
    .where(isPublicRecord)
    .orderBy('id')
    .limit(limit)
    .execute()
}

/** How many public records there are (the sitemap's size, to split it into files). */
export async function countPublicRecords(db: Queryable): Promise<number> {
  const row = await db
    .selectFrom('structure')
    .select((eb) => eb.fn.countAll<number | string | bigint>().as('count'))
    .where(isPublicRecord)
    .executeTakeFirstOrThrow()
  return Number(row.count)
}

/** The id of the public record `offset` places into id order (a sitemap file's first), or null. */
export async function sitemapStartId(db: Queryable, offset: number): Promise<number | null> {
  const row = await db
    .selectFrom('structure')
    .select('id')
    .where(isPublicRecord)
    .orderBy('id')
    .limit(1)
    .offset(offset)
    .executeTakeFirst()
  return row ? Number(row.id) : null
}

/** How many public products each of these sections holds (up to 500 ids): its (parentId, typeId…) index alone. */
export async function countPublicProducts(db: Queryable, sectionIds: readonly number[]): Promise<Map<number, number>> {
  const counts = new Map<number, number>(sectionIds.map((id) => [id, 0]))
  if (sectionIds.length === 0) return counts
  const rows = await db
    .selectFrom('structure')
    .select((eb) => ['parentId', eb.fn.countAll<number | string | bigint>().as('count')])
    .where('parentId', 'in', [...sectionIds])
    .where('typeId', '=', 'product')
    .where(isPublicRecord)
    .groupBy('parentId')
    .execute()
  for (const row of rows) counts.set(Number(row.parentId), Number(row.count))
  return counts
}
