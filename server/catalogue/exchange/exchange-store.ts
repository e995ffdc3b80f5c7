// The products the 1C exchange writes (docs/decisions/032-1c-exchange.md): 1C's goods created in
// their group's section or brought up to date (title, артикул, description, brand, characteristics,
// gallery, section), each tied to 1C's Ид (exchange-records.ts). Every write takes the write door's
// unit; a step writes a bounded batch, so no transaction holds SQLite's write lock for long.
import type { Transaction } from 'kysely'
import type { Database } from '../../data/schema'
import type { ContentWrite } from '../../content/content-write'
import { forgetGoneUrl, insertRecord, sortAfterLastChild, updateRecord } from '../../content/structure-store'
import { moveRecord } from '../../content/structure-tree'
import { syncMainImage } from '../products/product-store'
import { findFreeUrls } from '../free-urls'
import { recordsOf, remember, type Tally } from './exchange-records'

type Trx = Transaction<Database>
export interface ProductInput {
  readonly id: string
  readonly title: string
  readonly article: string | null
  readonly description: string | null
  readonly vendor: string | null
  /** The section of its first group; null: the catalogue */
  readonly group: string | null
  /** Stored images (`uploads/…`), in order; null: the file named none, keep the gallery */
  readonly images: readonly string[] | null
  readonly properties: readonly { readonly name: string; readonly value: string }[]
  readonly deleted: boolean
}

interface StoredProduct {
  id: number
  parentId: number | null
  title: string
  urlFull: string
  status: number | null
  article: string | null
  description: string | null
  vendor: string | null
}

async function loadProducts(trx: Trx, ids: readonly number[]): Promise<Map<number, StoredProduct>> {
  const out = new Map<number, StoredProduct>()
  if (ids.length === 0) return out
  const rows = await trx
    .selectFrom('structure')
    .innerJoin('product', 'product.structureId', 'structure.id')
    .select([
      'structure.id',
      'structure.parentId',
      'structure.title',
      'structure.urlFull',
      'structure.status',
      'product.article',
      'product.description',
      'product.vendor',
    ])
    .where('structure.id', 'in', ids)
    .execute()
  for (const row of rows) out.set(row.id, row)
  return out
}

function byOwner<T extends { structureId: number }>(rows: T[]): Map<number, T[]> {
  const out = new Map<number, T[]>()
  for (const row of rows) out.set(row.structureId, [...(out.get(row.structureId) ?? []), row])
  return out
}

const same = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i])

/** Products from 1C's goods: created in their group's section, or brought up to date. */
export async function upsertProducts(
  unit: ContentWrite,
  products: readonly ProductInput[],
  rootId: number,
  runId: number,
  tally: Tally,
): Promise<void> {
  const trx = unit.trx
  const known = await recordsOf(
    trx,
    'product',
    products.map((p) => p.id),
  )
  const sections = await recordsOf(trx, 'group', [
    ...new Set(products.flatMap((p) => (p.group === null ? [] : [p.group]))),
  ])
  const sectionIds = [...new Set([rootId, ...[...sections.values()].map((s) => s.structureId)])]
  const sectionUrls = new Map(
    (await trx.selectFrom('structure').select(['id', 'urlFull']).where('id', 'in', sectionIds).execute()).map((r) => [
      r.id,
      r.urlFull,
    ]),
  )
  const stored = await loadProducts(
    trx,
    [...known.values()].map((k) => k.structureId),
  )
  const storedIds = [...stored.keys()]
  const galleries = byOwner(
    storedIds.length === 0
      ? []
      : await trx
          .selectFrom('productImage')
          .select(['structureId', 'image'])
          .where('structureId', 'in', storedIds)
          .orderBy('sort')
          .orderBy('id')
          .execute(),
  )
  const propertyRows = byOwner(
    storedIds.length === 0
      ? []
      : await trx
          .selectFrom('productProperty')
          .select(['structureId', 'name', 'value'])
          .where('structureId', 'in', storedIds)
          .orderBy('sort')
          .orderBy('id')
          .execute(),
  )

  const sectionFor = (p: ProductInput) => (p.group !== null ? sections.get(p.group)?.structureId : undefined) ?? rootId
  const fresh = products.filter((p) => !known.has(p.id) && !p.deleted)
  // One query for the batch's new URLs (free-urls.ts), whatever the number of namesakes.
  const freeUrls = await findFreeUrls(
    trx,
    fresh.map((p) => ({
      parentUrl: sectionUrls.get(sectionFor(p)) ?? '/',
      name: p.title,
      fallback: p.article ?? p.id,
    })),
  )
  const urls = new Map(fresh.map((p, i) => [p.id, freeUrls[i]]))
  const writeGallery = async (id: number, images: readonly string[]) => {
    await unit.touch([id])
    await trx.deleteFrom('productImage').where('structureId', '=', id).execute()
    if (images.length > 0) {
      await trx
        .insertInto('productImage')
        .values(images.map((image, sort) => ({ structureId: id, image, alt: null, sort })))
        .execute()
    }
    await syncMainImage(unit, id, 'gallery')
  }
  const writeProperties = async (id: number, properties: ProductInput['properties']) => {
    await unit.touch([id])
    await trx.deleteFrom('productProperty').where('structureId', '=', id).execute()
    if (properties.length > 0) {
      await trx
        .insertInto('productProperty')
        .values(
          properties.map((p, sort) => ({
            structureId: id,
            groupName: null,
            name: p.name,
            value: p.value,
            unit: null,
            sort,
          })),
        )
        .execute()
    }
  }

  for (const product of products) {
    const current = known.get(product.id)
    const parentId = sectionFor(product)
    if (!current) {
      if (product.deleted) continue
      const urlFull = urls.get(product.id)!
      await forgetGoneUrl(unit, urlFull)
      const id = await insertRecord(unit, {
        parentId,
        typeId: 'product',
        title: product.title,
        urlFull,
        sort: await sortAfterLastChild(trx, parentId),
        metaDescription: product.description?.slice(0, 300) ?? null,
      })
      await trx
        .insertInto('product')
        .values({
          structureId: id,
          image: null,
          article: product.article,
          // No price until the offers say: the page shows «Цена по запросу»
          price: null,
          oldPrice: null,
          description: product.description,
          vendor: product.vendor,
          availability: 'in_stock',
        })
        .execute()
      if (product.properties.length > 0) await writeProperties(id, product.properties)
      if (product.images && product.images.length > 0) {
        await writeGallery(id, product.images)
        tally.imagesTaken += product.images.length
      }
      await remember(trx, 'product', product.id, id, runId)
      tally.productsCreated++
      continue
    }
    const row = stored.get(current.structureId)
    if (!row) continue
    if (product.deleted) {
      if (row.status !== 410) {
        await updateRecord(unit, row.id, { status: 410 })
        tally.productsWithdrawn++
      }
      await trx
        .insertInto('exchangeRecord')
        .values({ kind: 'product', externalId: product.id, structureId: row.id, seenRun: runId, withdrawn: 1 })
        .onConflict((oc) => oc.columns(['kind', 'externalId']).doUpdateSet({ seenRun: runId, withdrawn: 1 }))
        .execute()
      continue
    }
    let changed = false
    if (row.parentId !== parentId) {
      await moveRecord(unit, { id: row.id, parentId, keepUrl: false })
      changed = true
    }
    const restore = current.withdrawn === 1 && row.status === 410
    if (row.title !== product.title || restore) {
      await updateRecord(unit, row.id, { title: product.title, ...(restore ? { status: null } : {}) })
      changed = true
    }
    const fields = {
      ...(row.article !== product.article ? { article: product.article } : {}),
      ...(row.description !== product.description ? { description: product.description } : {}),
      ...(row.vendor !== product.vendor ? { vendor: product.vendor } : {}),
    }
    // Only what changes is touched: an exchange that changes nothing leaves the version, the caches
    // and search alone.
    if (Object.keys(fields).length > 0) {
      await unit.touch([row.id])
      await trx.updateTable('product').set(fields).where('structureId', '=', row.id).execute()
      changed = true
    }
    const props = propertyRows.get(row.id) ?? []
    if (
      !same(
        props.map((p) => `${p.name}\u0000${p.value}`),
        product.properties.map((p) => `${p.name}\u0000${p.value}`),
      )
    ) {
      await writeProperties(row.id, product.properties)
      changed = true
    }
    if (product.images !== null) {
      const gallery = (galleries.get(row.id) ?? []).map((g) => g.image)
      if (!same(gallery, product.images)) {
        await writeGallery(row.id, product.images)
        tally.imagesTaken += product.images.filter((i) => !gallery.includes(i)).length
        changed = true
      }
    }
    await remember(trx, 'product', product.id, row.id, runId)
    if (changed) tally.productsUpdated++
  }
}
