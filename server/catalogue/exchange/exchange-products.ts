// The products the 1C exchange writes (docs/decisions/032-1c-exchange.md): 1C's goods created in
// their group's section or brought up to date (title, артикул, description, brand, characteristics,
// gallery, section; the title, description and gallery only where the owner lets 1C overwrite them,
// decision 044), each tied to 1C's Ид (exchange-records.ts). The rows are written by the
// product-row repository (products/product-rows.ts) in the write door's unit; a step writes a
// bounded batch, so no transaction holds SQLite's write lock for long.
import type { ContentWrite } from '../../content/content-write'
import { sortsAfterLastChild, updateRecord } from '../../content/structure-store'
import { moveRecord } from '../../content/structure-tree'
import {
  createProducts,
  loadGalleries,
  loadProductRows,
  loadProperties,
  replaceGallery,
  replaceProperties,
  setProductFields,
  type ProductChange,
} from '../products/product-rows'
import { findFreeUrls } from '../free-urls'
import { itemName } from './commerceml-checks'
import { recordsOf, rememberAll, type Tally } from './exchange-records'
import { fieldWriter, type OwnedFields } from './exchange-owned-fields'

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

const same = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i])

/** Products from 1C's goods: created in their group's section, or brought up to date. */
export async function upsertProducts(
  unit: ContentWrite,
  products: readonly ProductInput[],
  rootId: number,
  runId: number,
  tally: Tally,
  /** The exchange's log: what the step did that the owner should read (a good deleted in 1C) */
  notes: { what: string; why: string }[] = [],
  /** The fields the owner lets 1C overwrite (exchange-owned-fields.ts); without it, all */
  owned?: OwnedFields,
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
  const stored = await loadProductRows(
    trx,
    [...known.values()].map((k) => k.structureId),
  )
  const galleries = await loadGalleries(trx, [...stored.keys()])
  const propertyRows = await loadProperties(trx, [...stored.keys()])
  const writes = await fieldWriter(trx, [...stored.keys()], owned)

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
  await createFresh(unit, fresh, freeUrls, sectionFor, runId, tally)
  const seen: { externalId: string; structureId: number }[] = []
  const fieldChanges: ProductChange[] = []
  for (const product of products) {
    const current = known.get(product.id)
    const parentId = sectionFor(product)
    if (!current) continue
    const row = stored.get(current.structureId)
    if (!row) continue
    if (product.deleted) {
      if (row.status !== 410) {
        await updateRecord(unit, row.id, { status: 410 })
        tally.productsWithdrawn++
        notes.push({ what: itemName('Товар', product.id, product.title), why: 'удалён в 1С: снят с сайта (410)' })
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
    const title = writes(row.id, 'title') && row.title !== product.title
    if (title || restore) {
      await updateRecord(unit, row.id, {
        ...(title ? { title: product.title } : {}),
        ...(restore ? { status: null } : {}),
      })
      changed = true
    }
    const fields = {
      ...(row.article !== product.article ? { article: product.article } : {}),
      ...(writes(row.id, 'description') && row.description !== product.description
        ? { description: product.description }
        : {}),
      ...(row.vendor !== product.vendor ? { vendor: product.vendor } : {}),
    }
    // Only what changes is touched: an exchange that changes nothing leaves the version, the caches
    // and search alone. The step's changes are written together after the loop.
    if (Object.keys(fields).length > 0) {
      fieldChanges.push({ id: row.id, set: fields })
      changed = true
    }
    const props = propertyRows.get(row.id) ?? []
    if (
      !same(
        props.map((p) => `${p.name}\u0000${p.value}`),
        product.properties.map((p) => `${p.name}\u0000${p.value}`),
      )
    ) {
      await replaceProperties(unit, row.id, product.properties)
      changed = true
    }
    if (product.images !== null && writes(row.id, 'images')) {
      const gallery = (galleries.get(row.id) ?? []).map((g) => g.image)
      if (!same(gallery, product.images)) {
        await replaceGallery(
          unit,
          row.id,
          product.images.map((image) => ({ image })),
        )
        tally.imagesTaken += product.images.filter((i) => !gallery.includes(i)).length
        changed = true
      }
    }
    seen.push({ externalId: product.id, structureId: row.id })
    if (changed) tally.productsUpdated++
  }
  await setProductFields(unit, fieldChanges)
  await rememberAll(trx, 'product', seen, runId)
}

/**
 * The step's new products in a few statements whatever their number (one round trip each on
 * PostgreSQL was most of a first exchange's time): each after the last child of its section, in
 * the file's order, tied to its Ид with this run as its creator.
 */
async function createFresh(
  unit: ContentWrite,
  fresh: readonly ProductInput[],
  urls: readonly string[],
  sectionFor: (p: ProductInput) => number,
  runId: number,
  tally: Tally,
): Promise<void> {
  if (fresh.length === 0) return
  const nextSort = await sortsAfterLastChild(unit.trx, fresh.map(sectionFor))
  const ids = await createProducts(
    unit,
    fresh.map((product, i) => {
      const parentId = sectionFor(product)
      const sort = nextSort.get(parentId)!
      nextSort.set(parentId, sort + 1)
      return {
        record: {
          parentId,
          title: product.title,
          urlFull: urls[i],
          sort,
          metaDescription: product.description?.slice(0, 300) ?? null,
        },
        // No price until the offers say: the page shows «Цена по запросу»
        fields: { article: product.article, description: product.description, vendor: product.vendor },
        gallery: (product.images ?? []).map((image) => ({ image })),
        properties: product.properties,
      }
    }),
  )
  await rememberAll(
    unit.trx,
    'product',
    fresh.map((product, i) => ({ externalId: product.id, structureId: ids[i] })),
    runId,
    true,
  )
  tally.imagesTaken += fresh.reduce((n, product) => n + (product.images?.length ?? 0), 0)
  tally.productsCreated += fresh.length
}
