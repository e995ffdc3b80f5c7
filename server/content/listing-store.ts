// The catalogue's listing queries (docs/decisions/031-sections-and-scale.md): one page of a
// section's products (sorted, filtered), the home page's featured products, and the sitemap read
// in pages. Split from structure-store.ts (which owns every other query on `structure` and its
// parts) to keep each file small; like it, the only place these tables' listings are written in SQL.
// Each query reads at most the rows its page shows, by index; the count reads the section's
// products through the (parentId, sort) index, never the catalogue.
import { sql, type Kysely, type SelectQueryBuilder, type Transaction } from 'kysely'
import { byteOrder } from '../data/dialect'
import type { Database } from '../data/schema'
import type { SectionQuery } from '../../src/site/section-query'
import { hasPublicParent, isPublicRecord } from './visibility'

type Queryable = Kysely<Database> | Transaction<Database>

/** A product as a card shows it, with what the card needs to route to it. */
export interface ListedProduct {
  id: number
  title: string
  urlFull: string
}

/** The public products directly under `sectionId`, narrowed by the query's filters. */
function sectionProducts(db: Queryable, sectionId: number, query: SectionQuery) {
  let q = db
    .selectFrom('structure')
    .innerJoin('product', 'product.structureId', 'structure.id')
    .where('structure.parentId', '=', sectionId)
    .where('structure.typeId', '=', 'product')
    .where(isPublicRecord)
  if (query.avail !== null) q = q.where('product.availability', '=', query.avail)
  if (query.min !== null) q = q.where('product.price', '>=', query.min)
  if (query.max !== null) q = q.where('product.price', '<=', query.max)
  return q
}

function ordered<O>(db: Queryable, q: SelectQueryBuilder<Database, 'structure' | 'product', O>, query: SectionQuery) {
  switch (query.sort) {
    case 'price':
    case 'price-desc':
      // No price sorts last either way («Цена по запросу»); ties by id, so paging is stable.
      return q
        .orderBy(sql`case when ${sql.ref('product.price')} is null then 1 else 0 end`)
        .orderBy('product.price', query.sort === 'price' ? 'asc' : 'desc')
        .orderBy('structure.id')
    case 'name':
      // Code point order on both databases (PostgreSQL's collation would differ from SQLite's).
      return q.orderBy(byteOrder(db, 'structure.title')).orderBy('structure.id')
    default:
      return q.orderBy('structure.sort').orderBy('structure.id')
  }
}

/** How many products the section shows with this query's filters. */
export async function countSectionProducts(db: Queryable, sectionId: number, query: SectionQuery): Promise<number> {
  const row = await sectionProducts(db, sectionId, query)
    .select((eb) => eb.fn.countAll<number | string | bigint>().as('count'))
    .executeTakeFirstOrThrow()
  return Number(row.count)
}

/** One page of the section's products in the query's order. */
export async function loadSectionProducts(
  db: Queryable,
  sectionId: number,
  query: SectionQuery,
  pageSize: number,
): Promise<ListedProduct[]> {
  const q = sectionProducts(db, sectionId, query).select(['structure.id', 'structure.title', 'structure.urlFull'])
  return ordered(db, q, query)
    .limit(pageSize)
    .offset((query.page - 1) * pageSize)
    .execute()
}

/** Up to `limit` public featured products under any record, in tree order (sort, id). */
export async function loadFeaturedProducts(db: Queryable, limit: number): Promise<ListedProduct[]> {
  return db
    .selectFrom('product')
    .innerJoin('structure', 'structure.id', 'product.structureId')
    .select(['structure.id', 'structure.title', 'structure.urlFull'])
    .where('product.featured', '=', 1)
    .where('structure.typeId', '=', 'product')
    .where(isPublicRecord)
    .where(hasPublicParent)
    .orderBy('structure.sort')
    .orderBy('structure.id')
    .limit(limit)
    .execute()
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
