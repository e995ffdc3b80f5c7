// The price list's queries on products, their characteristics and the sections they go in. The
// structure rows themselves are written through content/structure-store.ts; every write takes the
// write door's unit (catalogue/write-door.ts).
import type { Kysely, Transaction } from 'kysely'
import type { Availability, Database } from '../../data/schema'
import type { ContentWrite } from '../../content/content-write'
import { findIdByUrl, forgetGoneUrl, insertRecord, updateRecord } from '../../content/structure-store'

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

export interface SectionEntry {
  readonly id: number
  readonly title: string
  readonly urlFull: string
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

/** Every section: where a new product may go (a catalogue has tens of them, not thousands). */
export async function loadSections(db: Queryable): Promise<SectionEntry[]> {
  return db
    .selectFrom('structure')
    .select(['id', 'title', 'urlFull'])
    .where('typeId', '=', 'section')
    .orderBy('id')
    .execute()
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

export async function insertProduct(unit: ContentWrite, product: NewProduct): Promise<number> {
  await forgetGoneUrl(unit, product.urlFull)
  const id = await insertRecord(unit, {
    parentId: product.parentId,
    typeId: 'product',
    title: product.title,
    urlFull: product.urlFull,
  })
  const trx = unit.trx
  await trx
    .insertInto('product')
    .values({
      structureId: id,
      image: null,
      article: product.article,
      price: product.price,
      description: null,
      vendor: product.vendor,
      availability: product.availability,
      oldPrice: product.oldPrice,
    })
    .execute()
  if (product.properties.length > 0) {
    await trx
      .insertInto('productProperty')
      .values(product.properties.map((p, sort) => ({ structureId: id, groupName: null, ...p, sort })))
      .execute()
  }
  return id
}

/** Whether a URL is free: no record has it. */
export async function isUrlFree(db: Queryable, urlFull: string): Promise<boolean> {
  return (await findIdByUrl(db, urlFull)) === null
}
