// The price list's products: found by артикул with their characteristics, changed and created
// through the product-row repository (products/product-rows.ts) in the write door's unit.
import type { Kysely, Transaction } from 'kysely'
import type { Availability, Database } from '../../data/schema'
import type { ContentWrite } from '../../content/content-write'
import { updateRecord } from '../../content/structure-store'
import {
  createProducts,
  editProperties,
  loadProperties,
  selectProductRows,
  setProductFields,
  type PropertyEdit,
} from '../products/product-rows'
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
    for (const row of await selectProductRows(db).where('product.article', 'in', part).execute()) {
      const product: StoredProduct = { ...row, article: row.article!, properties: [] }
      byId.set(product.id, product)
      const list = found.get(product.article) ?? []
      list.push(product)
      found.set(product.article, list)
    }
  }
  for (const part of chunks([...byId.keys()])) {
    await yieldToOthers()
    for (const [id, properties] of await loadProperties(db, part)) byId.get(id)!.properties.push(...properties)
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

export type PropertyOp = PropertyEdit

export interface ProductUpdate {
  readonly product: StoredProduct
  readonly change: ProductChange
  readonly properties: readonly PropertyOp[]
}

/** A change without its title: the product's own fields. */
function ownFields(change: ProductChange): Omit<ProductChange, 'title'> {
  const fields = { ...change }
  delete fields.title
  return fields
}

/**
 * Changed products (an import's chunk): their own fields through the product-row repository, a
 * few statements for the chunk; a new title or characteristic each on its own (rarer).
 */
export async function updateProducts(unit: ContentWrite, updates: readonly ProductUpdate[]): Promise<void> {
  if (updates.length === 0) return
  await setProductFields(
    unit,
    updates.map(({ product, change }) => ({ id: product.id, set: ownFields(change) })),
  )
  for (const { product, change, properties } of updates) {
    if (change.title !== undefined) await updateRecord(unit, product.id, { title: change.title })
    await editProperties(unit, product.id, properties)
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
  return createProducts(
    unit,
    products.map((p) => ({
      record: { parentId: p.parentId, title: p.title, urlFull: p.urlFull },
      fields: {
        article: p.article,
        price: p.price,
        oldPrice: p.oldPrice,
        availability: p.availability,
        vendor: p.vendor,
      },
      properties: p.properties,
    })),
  )
}
