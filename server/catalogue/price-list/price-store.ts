// The price list's queries on products, their characteristics and the sections they go in. The
// structure rows themselves are written through content/structure-store.ts; every write takes the
// write door's unit (catalogue/write-door.ts).
import { sql, type Kysely, type Transaction } from 'kysely'
import type { Availability, Database } from '../../data/schema'
import type { ContentWrite } from '../../content/content-write'
import { forgetGoneUrls, insertRecords, updateRecord } from '../../content/structure-store'
import { yieldToOthers } from '../import-claim'

type Queryable = Kysely<Database> | Transaction<Database>

const CHUNK = 500

export interface StoredProperty {
  readonly id: number
  readonly name: string
  readonly value: string
  readonly unit: string | null
  readonly sort: number
}

export interface StoredProduct {
  readonly id: number
  readonly article: string
  readonly title: string
  readonly urlFull: string
  readonly parentId: number | null
  readonly price: number | null
  readonly oldPrice: number | null
  readonly availability: Availability
  readonly vendor: string | null
  readonly properties: StoredProperty[]
}

function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = []
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK))
  return out
}

/** Products by артикул (exact, trimmed), with their characteristics; an артикул may have several. */
export async function loadProductsByArticle(
  db: Queryable,
  articles: readonly string[],
): Promise<Map<string, StoredProduct[]>> {
  const found = new Map<string, StoredProduct[]>()
  const byId = new Map<number, StoredProduct>()
  for (const part of chunks(articles)) {
    // SQLite answers synchronously: without a yield the reads of a large file are one long block.
    await yieldToOthers()
    const rows = await db
      .selectFrom('product')
      .innerJoin('structure', 'structure.id', 'product.structureId')
      .select([
        'structure.id',
        'structure.title',
        'structure.urlFull',
        'structure.parentId',
        'product.article',
        'product.price',
        'product.oldPrice',
        'product.availability',
        'product.vendor',
      ])
      .where('product.article', 'in', part)
      .where('structure.typeId', '=', 'product')
      .execute()
    for (const row of rows) {
      const product: StoredProduct = { ...row, article: row.article!, properties: [] }
      byId.set(product.id, product)
      const list = found.get(product.article) ?? []
      list.push(product)
      found.set(product.article, list)
    }
  }
  for (const part of chunks([...byId.keys()])) {
    await yieldToOthers()
    const rows = await db
      .selectFrom('productProperty')
      .select(['id', 'structureId', 'name', 'value', 'unit', 'sort'])
      .where('structureId', 'in', part)
      .orderBy('sort')
      .orderBy('id')
      .execute()
    for (const { structureId, ...property } of rows) byId.get(structureId)!.properties.push(property)
  }
  return found
}

export interface ProductChange {
  readonly title?: string
  readonly price?: number | null
  readonly oldPrice?: number | null
  readonly availability?: Availability
  readonly vendor?: string | null
}

export type PropertyOp =
  | { readonly kind: 'insert'; readonly name: string; readonly value: string; readonly unit: string | null }
  | { readonly kind: 'update'; readonly id: number; readonly value: string; readonly unit: string | null }
  | { readonly kind: 'delete'; readonly id: number }

export interface ProductUpdate {
  readonly product: StoredProduct
  readonly change: ProductChange
  readonly properties: readonly PropertyOp[]
}

const INTEGER_FIELDS = new Set(['price', 'oldPrice'])
/** Fields search does not read: a product changed in these alone is not reindexed */
const UNSEARCHED_FIELDS = new Set(['price', 'oldPrice', 'availability'])

/** Whether an update leaves every word search finds as it was (a new price or stock alone). */
const wordsKept = (update: ProductUpdate) =>
  update.properties.length === 0 && Object.keys(update.change).every((field) => UNSEARCHED_FIELDS.has(field))

/**
 * Changed products (an import's chunk) in a few statements rather than a few per product: the
 * records' times in one, their prices and the like in one per set of changed fields (a CASE by
 * id), a new title or characteristic each on its own (rarer).
 */
export async function updateProducts(unit: ContentWrite, updates: readonly ProductUpdate[]): Promise<void> {
  if (updates.length === 0) return
  const trx = unit.trx
  await unit.touch(updates.filter((u) => !wordsKept(u)).map((u) => u.product.id))
  await unit.touch(
    updates.filter(wordsKept).map((u) => u.product.id),
    { words: false },
  )
  for (const part of chunks(updates)) {
    await trx
      .updateTable('structure')
      .set({ updatedAt: unit.at })
      .where(
        'id',
        'in',
        part.map((u) => u.product.id),
      )
      .execute()
  }
  const groups = new Map<string, ProductUpdate[]>()
  for (const update of updates) {
    const { title, ...fields } = update.change
    if (title !== undefined) await updateRecord(unit, update.product.id, { title })
    const key = Object.keys(fields).sort().join(',')
    if (key !== '') groups.set(key, [...(groups.get(key) ?? []), update])
  }
  for (const [key, group] of groups) {
    const fields = key.split(',') as (keyof Omit<ProductChange, 'title'>)[]
    for (const part of chunks(group)) {
      const set = Object.fromEntries(
        fields.map((field) => [
          field,
          sql`case ${sql.ref('structureId')} ${sql.join(
            part.map((u) => {
              const value = u.change[field] ?? null
              return sql`when ${u.product.id} then ${INTEGER_FIELDS.has(field) ? sql`cast(${value} as integer)` : value}`
            }),
            sql` `,
          )} end`,
        ]),
      )
      await trx
        .updateTable('product')
        .set(set)
        .where(
          'structureId',
          'in',
          part.map((u) => u.product.id),
        )
        .execute()
    }
  }
  for (const { product, properties } of updates) await writeProperties(unit, product, properties)
}

async function writeProperties(unit: ContentWrite, product: StoredProduct, properties: readonly PropertyOp[]) {
  const trx = unit.trx
  let sort = product.properties.reduce((max, p) => Math.max(max, p.sort), -1)
  for (const op of properties) {
    if (op.kind === 'delete') await trx.deleteFrom('productProperty').where('id', '=', op.id).execute()
    else if (op.kind === 'update')
      await trx.updateTable('productProperty').set({ value: op.value, unit: op.unit }).where('id', '=', op.id).execute()
    else
      await trx
        .insertInto('productProperty')
        .values({
          structureId: product.id,
          groupName: null,
          name: op.name,
          value: op.value,
          unit: op.unit,
          sort: ++sort,
        })
        .execute()
  }
}

export interface NewProduct {
  readonly parentId: number
  readonly urlFull: string
  readonly title: string
  readonly article: string
  readonly price: number | null
  readonly oldPrice: number | null
  readonly availability: Availability
  readonly vendor: string | null
  readonly properties: readonly { name: string; value: string; unit: string | null }[]
}

/** New products in a few statements (an import's chunk, URLs free); returns their ids in order. */
export async function insertProducts(unit: ContentWrite, products: readonly NewProduct[]): Promise<number[]> {
  if (products.length === 0) return []
  await forgetGoneUrls(
    unit,
    products.map((p) => p.urlFull),
  )
  const ids = await insertRecords(
    unit,
    products.map((p) => ({ parentId: p.parentId, typeId: 'product', title: p.title, urlFull: p.urlFull })),
  )
  const trx = unit.trx
  await trx
    .insertInto('product')
    .values(
      products.map((p, i) => ({
        structureId: ids[i],
        image: null,
        article: p.article,
        price: p.price,
        description: null,
        vendor: p.vendor,
        availability: p.availability,
        oldPrice: p.oldPrice,
      })),
    )
    .execute()
  const properties = products.flatMap((p, i) =>
    p.properties.map((property, sort) => ({ structureId: ids[i], groupName: null, ...property, sort })),
  )
  for (const part of chunks(properties)) await trx.insertInto('productProperty').values(part).execute()
  return ids
}
