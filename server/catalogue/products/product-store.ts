// What pages read of products (decision 025): a product's gallery and characteristics, its card's
// fields and its page's record. The product rows are written by product-rows.ts alone.
import type { Kysely, Transaction } from 'kysely'
import { executeCompiled } from '../../data/db'
import type { Database } from '../../data/schema'
import { shownProperty, visibleProperty } from '../characteristics/characteristic-store'

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
        .where(visibleProperty)
        .orderBy('productProperty.sort')
        .orderBy('productProperty.id'),
    ),
  ])
  return {
    images,
    properties: properties.map((p) => ({ group: p.groupName, name: p.name, value: p.value, unit: p.unit })),
  }
}

/** What a product card shows of each given record: image, article, prices, availability (no description). */
export async function loadProductCardParts(db: Queryable, ids: readonly number[]) {
  if (ids.length === 0) return []
  return executeCompiled(db, `product cards ${ids.length}`, ids, () =>
    db
      .selectFrom('product')
      .select(['structureId', 'image', 'article', 'price', 'oldPrice', 'availability'])
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
