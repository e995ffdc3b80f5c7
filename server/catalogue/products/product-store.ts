// What pages read of products (decision 025): a product's gallery and characteristics, its card's
// fields and its page's record. The product rows are written by product-rows.ts alone.
import { sql, type Kysely, type Transaction } from 'kysely'
import { executeCompiled } from '../../data/db'
import type { Database } from '../../data/schema'
import { shownProperty, visibleProperty } from '../characteristics/characteristic-store'
import type { ProductVariantView } from '../../../src/site/types'

type Queryable = Kysely<Database> | Transaction<Database>

/** One picture of a product's gallery, in order; the first is the main one. */
export interface GalleryImage {
  image: string
  alt: string | null
}

/** One row of a product's characteristics: «name: value unit», under an optional group heading. */
export interface ProductProperty {
  group: string | null
  name: string
  value: string
  unit: string | null
}

/**
 * The rows in the owner's order of their characteristics («Порядок», decision 042), then as stored;
 * the rows of a group kept together, where the group's first row falls.
 */
function inOwnersOrder<R extends { groupName: string | null }>(rows: readonly R[]): R[] {
  const groups = new Map<string | null, R[]>()
  for (const row of rows) {
    const group = groups.get(row.groupName)
    if (group) group.push(row)
    else groups.set(row.groupName, [row])
  }
  return [...groups.values()].flat()
}

/** A product page's gallery and characteristics, in their order (two bounded queries). */
export async function loadProductDetails(
  db: Queryable,
  id: number,
): Promise<{ images: GalleryImage[]; properties: ProductProperty[] }> {
  const [images, properties] = await Promise.all([
    executeCompiled(db, 'product gallery', [id], () =>
      db
        .selectFrom('productImage')
        .select(['image', 'alt'])
        .where('structureId', '=', id)
        .orderBy('sort')
        .orderBy('id'),
    ),
    executeCompiled(db, 'product properties', [id], () =>
      // The owner's name and unit for each; a hidden characteristic is left out (decision 042).
      db
        .selectFrom('productProperty')
        .leftJoin('characteristic', 'characteristic.id', 'productProperty.characteristicId')
        .select(shownProperty)
        .where('productProperty.structureId', '=', id)
        // A variant's option rows make the chooser, not the list (decision 043).
        .where('productProperty.variantId', 'is', null)
        .where(visibleProperty)
        // A row without a characteristic stands where one the owner has not placed (0) would.
        .orderBy(sql`coalesce(${sql.ref('characteristic.sort')}, 0)`)
        .orderBy('productProperty.sort')
        .orderBy('productProperty.id'),
    ),
  ])
  return {
    images,
    properties: inOwnersOrder(properties).map((p) => ({
      group: p.groupName,
      name: p.name,
      value: p.value,
      unit: p.unit,
    })),
  }
}

/** What a product card shows of each given record: image, article, prices, availability (no description). */
export async function loadProductCardParts(db: Queryable, ids: readonly number[]) {
  if (ids.length === 0) return []
  return executeCompiled(db, `product cards ${ids.length}`, ids, () =>
    db
      .selectFrom('product')
      .select((eb) => [
        'structureId',
        'image',
        'article',
        'price',
        'oldPrice',
        'availability',
        // Whether it has variants, and whether their prices differ (the card's «от»).
        eb
          .selectFrom('productVariant as pv')
          .select(sql<number>`count(distinct coalesce(${sql.ref('pv.price')}, -1))`.as('n'))
          .whereRef('pv.productId', '=', 'product.structureId')
          .as('variantPrices'),
      ])
      .where('structureId', 'in', [...ids]),
  )
}

/**
 * A product page's own record and its product row in one statement: the record's title, text and
 * meta (as loadPageRecord reads them) and the product's fields, null where it has no product row.
 */
export async function loadProductPageRecord(db: Queryable, id: number) {
  const [row] = await executeCompiled(db, 'product page record', [id], () =>
    db
      .selectFrom('structure')
      .leftJoin('product', 'product.structureId', 'structure.id')
      .select([
        'structure.id',
        'structure.title',
        'structure.urlFull',
        'structure.content',
        'structure.metaTitle',
        'structure.metaDescription',
        'structure.metaImage',
        'structure.metaRobots',
        'structure.metaJsonLd',
        'product.image',
        'product.article',
        'product.price',
        'product.oldPrice',
        'product.availability',
        'product.vendor',
        'product.description',
      ])
      .where('structure.id', '=', id),
  )
  return row
}

/** A product page's variants in order, each with its option values as the owner names them (two bounded queries). */
export async function loadProductVariants(db: Queryable, id: number): Promise<ProductVariantView[]> {
  const [variants, options] = await Promise.all([
    executeCompiled(db, 'product variants', [id, MAX_SHOWN_VARIANTS], () =>
      db
        .selectFrom('productVariant')
        .select(['id', 'title', 'article', 'price', 'oldPrice', 'availability', 'image'])
        .where('productId', '=', id)
        .orderBy('sort')
        .orderBy('id')
        // A product's variants are a few dozen; the bound keeps a page's cost whatever a writer made.
        .limit(MAX_SHOWN_VARIANTS),
    ),
    executeCompiled(db, 'product variant options', [id, MAX_SHOWN_VARIANTS * 8], () =>
      db
        .selectFrom('productProperty')
        .leftJoin('characteristic', 'characteristic.id', 'productProperty.characteristicId')
        .select(['productProperty.variantId', ...shownProperty])
        .where('productProperty.structureId', '=', id)
        .where('productProperty.variantId', 'is not', null)
        .orderBy('productProperty.sort')
        .limit(MAX_SHOWN_VARIANTS * 8),
    ),
  ])
  return variants.map((v) => ({
    ...v,
    options: options.filter((o) => o.variantId === v.id).map((o) => ({ name: o.name, value: o.value })),
  }))
}

/** Variants a product page offers at most */
export const MAX_SHOWN_VARIANTS = 200
