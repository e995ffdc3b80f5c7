// The price list's variants (docs/decisions/043-variants.md): the variants and products its model
// rows name, read by артикул, by product and by a model's title in its section; and a model's
// writes, through the product-row repository (products/product-rows.ts) and the variant repository
// (products/variant-rows.ts) in the write door's unit.
import type { Kysely, Transaction } from 'kysely'
import type { Database } from '../../data/schema'
import type { ContentWrite } from '../../content/content-write'
import { createProducts, loadProperties, selectProductRows } from '../products/product-rows'
import { chunks, loadVariants } from '../products/product-row-reads'
import { writeVariants } from '../products/variant-rows'
import { yieldToOthers } from '../import-claim'
import { updateProducts, type StoredProduct } from './price-store'
import type { ModelPlan, StoredVariant } from './price-models'

type Queryable = Kysely<Database> | Transaction<Database>

/** The products whose variants have these артикулы: артикул → the products' ids. */
export async function loadVariantProducts(db: Queryable, articles: readonly string[]): Promise<Map<string, number[]>> {
  const found = new Map<string, number[]>()
  for (const part of chunks([...new Set(articles)].filter((a) => a !== ''))) {
    await yieldToOthers()
    const rows = await db
      .selectFrom('productVariant')
      .select(['article', 'productId'])
      .where('article', 'in', part)
      .execute()
    for (const { article, productId } of rows) {
      const ids = found.get(article!) ?? []
      if (!ids.includes(productId)) ids.push(productId)
      found.set(article!, ids)
    }
  }
  return found
}

/** The variants of the given products, in order, with their option rows. */
export async function loadStoredVariants(db: Queryable, ids: readonly number[]): Promise<Map<number, StoredVariant[]>> {
  const out = new Map<number, StoredVariant[]>()
  const byId = new Map<number, StoredVariant>()
  for (const part of chunks([...new Set(ids)])) {
    await yieldToOthers()
    for (const [productId, variants] of await loadVariants(db, part)) {
      const list = variants.map(({ image: _image, ...row }): StoredVariant => ({ ...row, options: [] }))
      for (const variant of list) byId.set(variant.id, variant)
      out.set(productId, list)
    }
    const options = await db
      .selectFrom('productProperty')
      .select(['variantId', 'name', 'value', 'unit'])
      .where('structureId', 'in', part)
      .where('variantId', 'is not', null)
      .orderBy('sort')
      .orderBy('id')
      .execute()
    for (const { variantId, name, value, unit } of options) {
      byId.get(variantId!)?.options.push({ name, value, unit: unit || null })
    }
  }
  return out
}

async function withProperties(
  db: Queryable,
  rows: readonly Omit<StoredProduct, 'properties'>[],
): Promise<StoredProduct[]> {
  const products = rows.map((row): StoredProduct => ({ ...row, properties: [] }))
  const byId = new Map(products.map((p) => [p.id, p]))
  for (const part of chunks([...byId.keys()])) {
    await yieldToOthers()
    for (const [id, properties] of await loadProperties(db, part)) byId.get(id)!.properties.push(...properties)
  }
  return products
}

/** Products by id, with their own characteristics. */
export async function loadProductsById(db: Queryable, ids: readonly number[]): Promise<Map<number, StoredProduct>> {
  const rows = []
  for (const part of chunks([...new Set(ids)])) {
    rows.push(...(await selectProductRows(db).where('structure.id', 'in', part).execute()))
  }
  const products = await withProperties(
    db,
    rows.map((row) => ({ ...row, article: row.article ?? '' })),
  )
  return new Map(products.map((p) => [p.id, p]))
}

/** Products by their exact title under the given sections: `${parentId} ${title}` → the products. */
export async function loadProductsByTitle(
  db: Queryable,
  wanted: readonly { parentId: number; title: string }[],
): Promise<Map<string, StoredProduct[]>> {
  const found = new Map<string, StoredProduct[]>()
  const keys = new Set(wanted.map((w) => `${w.parentId} ${w.title}`))
  const parents = [...new Set(wanted.map((w) => w.parentId))]
  for (const part of chunks([...new Set(wanted.map((w) => w.title))])) {
    await yieldToOthers()
    const rows = await selectProductRows(db)
      .where('structure.title', 'in', part)
      .where('structure.parentId', 'in', parents)
      .execute()
    const products = await withProperties(
      db,
      rows.map((row) => ({ ...row, article: row.article ?? '' })),
    )
    for (const product of products) {
      const key = `${product.parentId} ${product.title}`
      if (keys.has(key)) found.set(key, [...(found.get(key) ?? []), product])
    }
  }
  return found
}

/** Where a new model's product goes: its section and free URL (price-import.ts finds them). */
export interface ModelWrite {
  readonly plan: ModelPlan
  readonly place: { readonly parentId: number; readonly urlFull: string } | null
}

/**
 * A chunk of models: each product changed (or created in its place), then its variants written
 * (the product's price, old price and availability follow them). Returns the products' ids.
 */
export async function writeModels(unit: ContentWrite, models: readonly ModelWrite[]): Promise<number[]> {
  const ids: number[] = []
  for (const { plan, place } of models) {
    let id = plan.product?.id
    if (plan.product) {
      await updateProducts(unit, [{ product: plan.product, change: plan.change, properties: plan.properties }])
    } else {
      id = (
        await createProducts(unit, [
          {
            record: { parentId: place!.parentId, title: plan.model, urlFull: place!.urlFull },
            fields: { article: null, price: null, oldPrice: null, availability: 'in_stock', vendor: plan.vendor },
            properties: plan.own,
          },
        ])
      )[0]
    }
    await writeVariants(unit, id!, plan.variants, plan.complete)
    ids.push(id!)
  }
  return ids
}
