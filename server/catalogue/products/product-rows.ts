// The product rows' repository (issue 43): the one file that writes `product`, `productImage` and
// `productProperty` rows (their reads are product-row-reads.ts). Every writer of the
// catalogue (the 1C exchange, the price list, «Товары», the editor through the model API, the demo
// shop) calls it with the write door's unit, and it decides once, for all of them:
//   - what the door is told: the records are touched, and a change of a price, an old price, the
//     availability, the featured flag or a picture leaves the words search finds as they were;
//   - that a product whose own fields changed takes the write's time as its record's updatedAt;
//   - the product rules: its image is its gallery's first, and its old price is above its price.
// Two jobs stay with content/structure-store.ts, as they are the whole record's: a record deleted
// with all its parts, and a stored file renamed in every image column.
// Each characteristics row names its characteristic (characteristic-keys.ts, decision 042); the
// variants and their option rows are variant-rows.ts's (decision 043): the rows here are the product's own.
import { sql, type Transaction } from 'kysely'
import type { Database } from '../../data/schema'
import type { ContentWrite } from '../../content/content-write'
import { forgetGoneUrls, insertRecords } from '../../content/structure-store'
import {
  checkProductPrices,
  chunks,
  firstImage,
  galleryRow,
  insertRows,
  INTEGER_FIELDS,
  WORDLESS_FIELDS,
  type FieldName,
  type GalleryInput,
  type NewProduct,
  type ProductChange,
  type ProductFields,
  type PropertyEdit,
  type PropertyInput,
} from './product-row-reads'
import { propertyEditOf, propertyRowsOf } from './characteristic-keys'

// One place to import the repository from: its reads and types too.
export {
  checkProductPrices,
  loadGalleries,
  loadProductRows,
  loadProperties,
  selectProductRows,
  type GalleryInput,
  type NewProduct,
  type ProductChange,
  type ProductFields,
  type ProductRow,
  type PropertyEdit,
  type PropertyInput,
} from './product-row-reads'

const wordsKept = (set: ProductFields) => Object.keys(set).every((field) => WORDLESS_FIELDS.has(field))

/** New products with their galleries and characteristics in a few statements; returns their ids in order. */
export async function createProducts(unit: ContentWrite, products: readonly NewProduct[]): Promise<number[]> {
  if (products.length === 0) return []
  const trx = unit.trx
  // A URL a deleted record had, taken again, serves the new product, no longer 410.
  await forgetGoneUrls(
    unit,
    products.map((p) => p.record.urlFull),
  )
  const rowsAtOnce = insertRows(trx)
  const records = products.map((p) => ({ ...p.record, typeId: 'product' }))
  const ids: number[] = []
  for (const part of chunks(records, rowsAtOnce)) ids.push(...(await insertRecords(unit, part)))
  // Every row names every column: one multi-row insert fits them all on both databases.
  const rows = products.map((p, i) => ({
    structureId: ids[i],
    image: p.gallery && p.gallery.length > 0 ? p.gallery[0].image : (p.fields.image ?? null),
    article: p.fields.article ?? null,
    price: p.fields.price ?? null,
    oldPrice: p.fields.oldPrice ?? null,
    description: p.fields.description ?? null,
    vendor: p.fields.vendor ?? null,
    availability: p.fields.availability ?? 'in_stock',
    featured: p.fields.featured ?? 0,
  }))
  for (const part of chunks(rows, rowsAtOnce)) await trx.insertInto('product').values(part).execute()
  const gallery = products.flatMap((p, i) => (p.gallery ?? []).map((g, sort) => galleryRow(ids[i], g, sort)))
  for (const part of chunks(gallery, rowsAtOnce)) await trx.insertInto('productImage').values(part).execute()
  const properties = products.flatMap((p, i) =>
    (p.properties ?? []).map((row, sort) => ({ structureId: ids[i], row, sort })),
  )
  for (const part of chunks(properties, rowsAtOnce))
    await trx
      .insertInto('productProperty')
      .values(await propertyRowsOf(trx, part))
      .execute()
  return ids
}

/**
 * Changes products' own fields: the records touched (reindexed only when a searched field changed),
 * their updatedAt the write's time, the rows updated in a statement per set of changed fields and
 * 500 products (a CASE by id). A product whose image is written alone keeps its gallery in step.
 * The caller passes what changes; an empty set changes nothing. Returns how many products changed.
 */
export async function setProductFields(unit: ContentWrite, changes: readonly ProductChange[]): Promise<number> {
  const merged = new Map<number, ProductFields>()
  for (const { id, set } of changes) {
    if (Object.keys(set).length > 0) merged.set(id, { ...merged.get(id), ...set })
  }
  if (merged.size === 0) return 0
  const trx = unit.trx
  const all = [...merged]
  await unit.touch(all.filter(([, set]) => !wordsKept(set)).map(([id]) => id))
  await unit.touch(
    all.filter(([, set]) => wordsKept(set)).map(([id]) => id),
    { words: false },
  )
  await stampUpdated(
    unit,
    all.map(([id]) => id),
  )
  const groups = new Map<string, [number, ProductFields][]>()
  for (const entry of all) {
    const key = Object.keys(entry[1]).sort().join(',')
    groups.set(key, [...(groups.get(key) ?? []), entry])
  }
  for (const [key, group] of groups) {
    const fields = key.split(',') as FieldName[]
    for (const part of chunks(group)) await updateRows(trx, fields, part)
  }
  for (const [id, set] of all) if (Object.hasOwn(set, 'image')) await syncMainImage(unit, id, 'product')
  return merged.size
}

/** The records of products whose own rows changed take the write's time as their updatedAt. */
async function stampUpdated(unit: ContentWrite, ids: readonly number[]) {
  for (const part of chunks(ids)) {
    await unit.trx.updateTable('structure').set({ updatedAt: unit.at }).where('id', 'in', part).execute()
  }
}

/** One statement: the rows of `part` take their own values of `fields`. */
async function updateRows(trx: Transaction<Database>, fields: readonly FieldName[], part: [number, ProductFields][]) {
  const ids = part.map(([id]) => id)
  if (part.length === 1) {
    await trx.updateTable('product').set(part[0][1]).where('structureId', '=', ids[0]).execute()
    return
  }
  const set = Object.fromEntries(
    fields.map((field) => [
      field,
      sql`case ${sql.ref('structureId')} ${sql.join(
        part.map(([id, values]) => {
          const value = values[field] ?? null
          return sql`when ${id} then ${INTEGER_FIELDS.has(field) ? sql`cast(${value} as integer)` : value}`
        }),
        sql` `,
      )} end`,
    ]),
  )
  await trx.updateTable('product').set(set).where('structureId', 'in', ids).execute()
}

/** A product's gallery replaced as a whole, in order; its image follows the first picture. */
export async function replaceGallery(unit: ContentWrite, id: number, images: readonly GalleryInput[]): Promise<void> {
  const trx = unit.trx
  await unit.touch([id], { words: false })
  await stampUpdated(unit, [id])
  await trx.deleteFrom('productImage').where('structureId', '=', id).execute()
  for (const part of chunks(images.map((g, sort) => galleryRow(id, g, sort)))) {
    await trx.insertInto('productImage').values(part).execute()
  }
  await syncMainImage(unit, id, 'gallery')
}

/** A product's characteristics replaced as a whole, in order. */
export async function replaceProperties(
  unit: ContentWrite,
  id: number,
  properties: readonly PropertyInput[],
): Promise<void> {
  const trx = unit.trx
  await unit.touch([id])
  await stampUpdated(unit, [id])
  await trx.deleteFrom('productProperty').where('structureId', '=', id).where('variantId', 'is', null).execute()
  for (const part of chunks(properties.map((row, sort) => ({ structureId: id, row, sort })))) {
    await trx
      .insertInto('productProperty')
      .values(await propertyRowsOf(trx, part))
      .execute()
  }
}

/** Some of a product's characteristics changed in place; a new one goes after the last. */
export async function editProperties(unit: ContentWrite, id: number, edits: readonly PropertyEdit[]): Promise<void> {
  if (edits.length === 0) return
  const trx = unit.trx
  await unit.touch([id])
  await stampUpdated(unit, [id])
  const last = await trx
    .selectFrom('productProperty')
    .select((eb) => eb.fn.max('sort').as('sort'))
    .where('structureId', '=', id)
    .where('variantId', 'is', null)
    .executeTakeFirst()
  let sort = last?.sort ?? -1
  for (const edit of edits) {
    if (edit.kind === 'delete') {
      await trx.deleteFrom('productProperty').where('id', '=', edit.id).where('structureId', '=', id).execute()
    } else if (edit.kind === 'update') {
      const row = await trx.selectFrom('productProperty').select('name').where('id', '=', edit.id).executeTakeFirst()
      if (!row) continue
      await trx
        .updateTable('productProperty')
        .set(await propertyEditOf(trx, row.name, edit.value, edit.unit))
        .where('id', '=', edit.id)
        .where('structureId', '=', id)
        .execute()
    } else {
      const row = { name: edit.name, value: edit.value, unit: edit.unit }
      const [values] = await propertyRowsOf(trx, [{ structureId: id, row, sort: ++sort }])
      await trx.insertInto('productProperty').values(values).execute()
    }
  }
}

/**
 * The editor's and the model API's write of a product's parts, as one record write carries them:
 * its product row merged (created when it has none; null deletes it), its gallery and
 * characteristics replaced. Then the rules: the image is the gallery's first, and the prices agree.
 * Returns the Russian reason the stored prices disagree (the caller refuses the write), or null.
 */
export async function writeProductParts(
  unit: ContentWrite,
  id: number,
  parts: {
    readonly product?: ProductFields | null
    readonly images?: readonly GalleryInput[]
    readonly properties?: readonly PropertyInput[]
  },
): Promise<string | null> {
  const trx = unit.trx
  const { product, images, properties } = parts
  if (product === null) {
    await unit.touch([id])
    await trx.deleteFrom('product').where('structureId', '=', id).execute()
  } else if (product !== undefined) {
    const exists = await trx
      .selectFrom('product')
      .select('structureId')
      .where('structureId', '=', id)
      .executeTakeFirst()
    if (exists) {
      // The image alone is kept in step below, once the gallery is written.
      const { image, ...fields } = product
      await setProductFields(unit, [{ id, set: images === undefined && image !== undefined ? product : fields }])
    } else {
      await unit.touch([id])
      await trx
        .insertInto('product')
        .values({ ...product, structureId: id })
        .execute()
      if (images === undefined && product.image !== undefined) await syncMainImage(unit, id, 'product')
    }
  }
  if (properties !== undefined) await replaceProperties(unit, id, properties)
  if (images !== undefined) await replaceGallery(unit, id, images)
  return product ? checkProductPrices(trx, id) : null
}

/**
 * Keeps product.image equal to the gallery's first picture after a write of one of them.
 * `gallery`: the gallery was written; the product's image follows it (null for an empty gallery).
 * `product`: the product's image was written alone (a client that knows no gallery); it becomes
 * the gallery's first picture, taking the place of the old first; null removes the first picture,
 * and the next one becomes the main image.
 */
async function syncMainImage(unit: ContentWrite, id: number, written: 'gallery' | 'product') {
  await unit.touch([id], { words: false })
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
