// The catalogue's part of the structure repository (decision 025): a product's gallery and
// characteristics as pages read them, and the two rules every product write keeps, whichever way it
// comes (a gallery write, a product written with only its image, the content import): the product's
// image is its gallery's first, and its old price is above its price.
import type { Kysely, Transaction } from 'kysely'
import { executeCompiled } from '../../data/db'
import type { Database } from '../../data/schema'
import type { ContentWrite } from '../../content/content-write'

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
      db
        .selectFrom('productProperty')
        .select(['groupName', 'name', 'value', 'unit'])
        .where('structureId', '=', id)
        .orderBy('sort')
        .orderBy('id'),
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

async function firstImage(db: Queryable, id: number) {
  return db
    .selectFrom('productImage')
    .select(['id', 'image'])
    .where('structureId', '=', id)
    .orderBy('sort')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst()
}

/**
 * Keeps product.image equal to the gallery's first picture after a write of one of them.
 * `gallery`: the gallery was written; the product's image follows it (null for an empty gallery).
 * `product`: the product's image was written alone (a client that knows no gallery); it becomes
 * the gallery's first picture, taking the place of the old first; null removes the first picture,
 * and the next one becomes the main image.
 */
export async function syncMainImage(unit: ContentWrite, id: number, written: 'gallery' | 'product') {
  await unit.touch([id])
  const trx = unit.trx
  const product = await trx.selectFrom('product').select('image').where('structureId', '=', id).executeTakeFirst()
  if (!product) return
  const first = await firstImage(trx, id)
  if (written === 'product') {
    if (product.image === null) {
      if (first) await trx.deleteFrom('productImage').where('id', '=', first.id).execute()
    } else if (!first) {
      await trx
        .insertInto('productImage')
        .values({ structureId: id, image: product.image, alt: null, sort: 0 })
        .execute()
      return
    } else {
      if (first.image !== product.image) {
        await trx
          .updateTable('productImage')
          .set({ image: product.image, alt: null })
          .where('id', '=', first.id)
          .execute()
      }
      return
    }
  }
  const main = written === 'gallery' ? (first?.image ?? null) : ((await firstImage(trx, id))?.image ?? null)
  if (main !== product.image)
    await trx.updateTable('product').set({ image: main }).where('structureId', '=', id).execute()
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
  if (row.oldPrice <= row.price) return `Старая цена должна быть больше цены (${row.price} ₽)`
  return null
}
