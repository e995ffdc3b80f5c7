// The price list's queries on products, their characteristics and the sections they go in. The
// structure rows themselves are written through content/structure-store.ts; every write takes the
// write door's unit (catalogue/write-door.ts).
import type { Kysely, Transaction } from 'kysely'
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

export async function updateProduct(
  unit: ContentWrite,
  product: StoredProduct,
  change: ProductChange,
  properties: readonly PropertyOp[],
): Promise<void> {
  const { title, ...fields } = change
  const trx = unit.trx
  await updateRecord(unit, product.id, title !== undefined ? { title } : {})
  if (Object.keys(fields).length > 0) {
    await trx.updateTable('product').set(fields).where('structureId', '=', product.id).execute()
  }
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
