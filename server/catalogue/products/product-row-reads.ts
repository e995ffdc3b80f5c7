// The product rows as their writers read them (issue 43): one read of a product row with its
// record, its gallery and its characteristics, many at once; the types the repository's writes take.
// Pages read products through product-store.ts; the rows are written by product-rows.ts alone.
import { formatMoney } from '../../../src/format/money'
import type { Kysely, Transaction, Updateable } from 'kysely'
import type { Database, NewStructure, ProductTable } from '../../data/schema'
import type { ProductVariantView } from '../../../src/site/types'
import { isSqlite } from '../../data/sql/dialect'

type Queryable = Kysely<Database> | Transaction<Database>

/** Rows per statement: bounds each statement's parameters on both databases. */
export const CHUNK = 500

/**
 * Rows per multi-row insert. On SQLite each insert is a statement prepared for its text, kept for
 * reuse only when short (data/statement-cache.ts), and held outside V8's heap until collected: 500
 * rows a statement made a 1C step's inserts megabytes each (the importing process grew 90 MiB past
 * the floor at 110,000 products). Fifty rows repeat the same short text, kept and reused. PostgreSQL
 * pays a round trip a statement instead: 500.
 */
export function insertRows(db: Queryable): number {
  return isSqlite(db) ? 50 : CHUNK
}

export function chunks<T>(items: readonly T[], size = CHUNK): T[][] {
  const out: T[][] = []
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size))
  return out
}

/** A product's own fields as a write names them; what it leaves out stays as it is. */
export type ProductFields = Omit<Updateable<ProductTable>, 'structureId'>
export type FieldName = keyof ProductFields

/** The fields search does not read (search-index.ts): a product changed in these alone is not reindexed. */
export const WORDLESS_FIELDS: ReadonlySet<string> = new Set<FieldName>([
  'image',
  'price',
  'oldPrice',
  'availability',
  'featured',
])
/** Integer columns: a CASE of bound values needs its type said on PostgreSQL. */
export const INTEGER_FIELDS: ReadonlySet<string> = new Set<FieldName>(['price', 'oldPrice', 'featured'])

/** One picture of a product's gallery, in order; the first is the main one. */
export interface GalleryInput {
  readonly image: string
  readonly alt?: string | null
  /** Its place; by default its position in the list */
  readonly sort?: number
}

/** One row of a product's characteristics: «name: value unit», under an optional group heading. */
export interface PropertyInput {
  readonly groupName?: string | null
  readonly name: string
  readonly value: string
  readonly unit?: string | null
  /** Its place; by default its position in the list */
  readonly sort?: number
}

export interface NewProduct {
  /** Its record: the parent section, title and a free URL (free-urls.ts); sort and meta optional */
  readonly record: Omit<NewStructure, 'typeId' | 'createdAt' | 'updatedAt'> & { parentId: number }
  /** Its own fields; the image is the gallery's first when a gallery is given */
  readonly fields: ProductFields
  readonly gallery?: readonly GalleryInput[]
  readonly properties?: readonly PropertyInput[]
}

export interface ProductChange {
  readonly id: number
  readonly set: ProductFields
}

/** One change to a product's characteristics, by the stored row's id (the price list's columns). */
export type PropertyEdit =
  | { readonly kind: 'insert'; readonly name: string; readonly value: string; readonly unit: string | null }
  | { readonly kind: 'update'; readonly id: number; readonly value: string; readonly unit: string | null }
  | { readonly kind: 'delete'; readonly id: number }

/** A gallery row to insert: its place in the list unless it names one. */
export const galleryRow = (structureId: number, row: GalleryInput, sort: number) => ({
  structureId,
  image: row.image,
  alt: row.alt ?? null,
  sort: row.sort ?? sort,
})

/** A characteristics row to insert: its place in the list unless it names one. */
export const propertyRow = (structureId: number, row: PropertyInput, sort: number) => ({
  structureId,
  groupName: row.groupName ?? null,
  name: row.name,
  value: row.value,
  unit: row.unit ?? null,
  sort: row.sort ?? sort,
})

/** The columns a product row is read with: its record's place and name, and the product's fields. */
const PRODUCT_ROW_COLUMNS = [
  'structure.id',
  'structure.parentId',
  'structure.title',
  'structure.urlFull',
  'structure.status',
  'product.image',
  'product.article',
  'product.price',
  'product.oldPrice',
  'product.availability',
  'product.vendor',
  'product.description',
  'product.featured',
] as const

/** The product records with their product rows; the caller adds which (a where) and runs it. */
export function selectProductRows(db: Queryable) {
  return db
    .selectFrom('structure')
    .innerJoin('product', 'product.structureId', 'structure.id')
    .select(PRODUCT_ROW_COLUMNS)
    .where('structure.typeId', '=', 'product')
}

export type ProductRow = Awaited<ReturnType<ReturnType<typeof selectProductRows>['execute']>>[number]

/** The product rows of the given records, by id (a statement per 500). */
export async function loadProductRows(db: Queryable, ids: readonly number[]): Promise<Map<number, ProductRow>> {
  const out = new Map<number, ProductRow>()
  for (const part of chunks([...new Set(ids)])) {
    for (const row of await selectProductRows(db).where('structure.id', 'in', part).execute()) out.set(row.id, row)
  }
  return out
}

/** A product's variant as its readers take it (docs/decisions/043-variants.md): the page's view without its options, prices in kopecks. */
export type VariantRow = Omit<ProductVariantView, 'options'> & {
  /** 1C's characteristic Ид; null for the site's own variant */
  externalId: string | null
}

/** The variants of the given products, by product, each product's in their order (a statement per 500). */
export async function loadVariants(db: Queryable, ids: readonly number[]): Promise<Map<number, VariantRow[]>> {
  const out = new Map<number, VariantRow[]>()
  for (const part of chunks([...new Set(ids)])) {
    const rows = await db
      .selectFrom('productVariant')
      .select(['id', 'productId', 'externalId', 'title', 'article', 'price', 'oldPrice', 'availability', 'image'])
      .where('productId', 'in', part)
      .orderBy('productId')
      .orderBy('sort')
      .orderBy('id')
      .execute()
    for (const { productId, price, oldPrice, ...row } of rows) {
      const variant = {
        ...row,
        price: price === null ? null : Number(price),
        oldPrice: oldPrice === null ? null : Number(oldPrice),
      }
      const list = out.get(productId)
      if (list) list.push(variant)
      else out.set(productId, [variant])
    }
  }
  return out
}

function byOwner<T extends { structureId: number }>(rows: readonly T[], into: Map<number, Omit<T, 'structureId'>[]>) {
  for (const { structureId, ...rest } of rows) {
    const list = into.get(structureId)
    if (list) list.push(rest)
    else into.set(structureId, [rest])
  }
}

/** The galleries of the given products, by id, each in order (a statement per 500). */
export async function loadGalleries(db: Queryable, ids: readonly number[]) {
  const out = new Map<number, { id: number; image: string; alt: string | null }[]>()
  for (const part of chunks([...new Set(ids)])) {
    byOwner(
      await db
        .selectFrom('productImage')
        .select(['structureId', 'id', 'image', 'alt'])
        .where('structureId', 'in', part)
        .orderBy('sort')
        .orderBy('id')
        .execute(),
      out,
    )
  }
  return out
}

/** The characteristics of the given products, by id, each in order (a statement per 500). */
export async function loadProperties(db: Queryable, ids: readonly number[]) {
  const out = new Map<
    number,
    { id: number; groupName: string | null; name: string; value: string; unit: string | null; sort: number }[]
  >()
  for (const part of chunks([...new Set(ids)])) {
    byOwner(
      await db
        .selectFrom('productProperty')
        .select(['structureId', 'id', 'groupName', 'name', 'value', 'unit', 'sort'])
        .where('structureId', 'in', part)
        // A variant's option rows are its own (variant-rows.ts), not the product's characteristics.
        .where('variantId', 'is', null)
        .orderBy('sort')
        .orderBy('id')
        .execute(),
      out,
    )
  }
  return out
}

export async function firstImage(db: Queryable, id: number) {
  return db
    .selectFrom('productImage')
    .select(['id', 'image'])
    .where('structureId', '=', id)
    .orderBy('sort')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst()
}

/** The Russian reason the stored prices of product `id` disagree, or null when they are fine. */
export async function checkProductPrices(trx: Transaction<Database>, id: number): Promise<string | null> {
  const row = await trx
    .selectFrom('product')
    .select(['price', 'oldPrice'])
    .where('structureId', '=', id)
    .executeTakeFirst()
  if (!row || row.oldPrice === null) return null
  if (row.price === null) return 'Старая цена указывается только вместе с ценой'
  if (row.oldPrice <= row.price) return `Старая цена должна быть больше цены (${formatMoney(row.price)})`
  return null
}
