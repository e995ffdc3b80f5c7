// The variants' part of the product rows' repository (issue 46 item 3, docs/decisions/043-variants.md):
// the one file that writes `productVariant` rows and their option rows (`productProperty` rows naming
// the variant). Every writer of variants (the 1C exchange's characteristics, the price list's model
// column, the demo shop) calls writeVariants with the write door's unit, and it decides once:
//   - a variant keeps its id (its URL `?v=<id>`, a request list's line) while its key stays: 1C's
//     characteristic Ид, else its артикул, else its title;
//   - its old price is kept only above its price;
//   - the product's own price, old price and availability follow its variants (the lowest price,
//     that variant's old price, the best availability), written through product-rows.ts, so
//     listings, sorting, price filters, cards and the feed read the product as before.
import type { Availability } from '../../data/schema'
import type { ContentWrite } from '../../content/content-write'
import { chunks } from './product-row-reads'
import { propertyRowsOf } from './characteristic-keys'
import { loadProductRows, setProductFields, type ProductFields } from './product-rows'

/** One variant as a writer names it; a field left undefined stays as stored (a new variant: none). */
export interface VariantInput {
  /** The variant of this id (the editor's, which names a variant by it); else found by its key */
  readonly id?: number
  /** 1C's characteristic Ид; null or absent for the site's own */
  readonly externalId?: string | null
  /** Required for a new variant that has no 1C Ид */
  readonly title?: string
  readonly article?: string | null
  /** Whole kopecks; null: «по запросу» */
  readonly price?: number | null
  readonly oldPrice?: number | null
  readonly availability?: Availability
  readonly image?: string | null
  /** Its option values («Цвет: Синий»), replaced as a whole when given */
  readonly options?: readonly { readonly name: string; readonly value: string; readonly unit?: string | null }[]
}

/**
 * What the 1C exchange leaves of the variants it did not create (the owner's switches, decision 044):
 * a variant the run made (in this file or an earlier one of the run) takes every field.
 */
export interface ExchangeVariants {
  readonly runId: number
  /** The fields an existing variant keeps as stored: the price and old price, the availability, the picture */
  readonly keep: readonly ('price' | 'oldPrice' | 'availability' | 'image')[]
}

export interface VariantsWritten {
  created: number
  updated: number
  removed: number
}

/** A variant's options sort after the product's own characteristics. */
const OPTION_SORT = 100_000
const AVAILABILITY_RANK: Record<Availability, number> = { in_stock: 0, on_order: 1, out_of_stock: 2 }

const optionKey = (o: { name: string; value: string; unit?: string | null }) =>
  `${o.name}\u0000${o.value}\u0000${o.unit ?? ''}\u0001`
const keyOf = (v: { externalId?: string | null; article?: string | null; title?: string }) =>
  v.externalId ? `x:${v.externalId}` : v.article ? `a:${v.article}` : `t:${v.title}`

/**
 * Which stored variants the inputs are all of, so one not among them is removed: every variant (a
 * price list's model), 1C's only (`'oneC'`: a full 1C offers file names all the characteristics
 * 1C has, and a variant the site made, without 1C's Ид, stays), or none (a partial file).
 */
export type VariantsComplete = boolean | 'oneC'

/**
 * Writes product `productId`'s variants: each input updates the variant of its key or becomes a new
 * one, in the order given. `complete`: the inputs are all its variants, or all its 1C variants, so a
 * stored one of them not among the inputs is removed. `exchange`: the 1C exchange's run, which marks
 * the variants it creates and leaves the kept fields of the others. Then the product's own price,
 * old price and availability follow its variants.
 */
export async function writeVariants(
  unit: ContentWrite,
  productId: number,
  inputs: readonly VariantInput[],
  complete: VariantsComplete,
  exchange?: ExchangeVariants,
): Promise<VariantsWritten> {
  const trx = unit.trx
  const stored = await trx.selectFrom('productVariant').selectAll().where('productId', '=', productId).execute()
  const byKey = new Map(stored.map((row) => [keyOf(row), row]))
  const byId = new Map(stored.map((row) => [row.id, row]))
  // A new variant of a partial write goes after the stored ones.
  const after = stored.reduce((most, row) => Math.max(most, row.sort + 1), 0)
  const storedOptions = new Map<number, string>()
  for (const row of await trx
    .selectFrom('productProperty')
    .select(['variantId', 'name', 'value', 'unit'])
    .where('structureId', '=', productId)
    .where('variantId', 'is not', null)
    .orderBy('sort')
    .execute()) {
    const had = storedOptions.get(row.variantId!)
    storedOptions.set(row.variantId!, `${had ?? ''}${optionKey(row)}`)
  }
  let optionsChanged = false
  const done = { created: 0, updated: 0, removed: 0 }
  let words = false
  const seen = new Set<number>()
  for (const [sort, input] of inputs.entries()) {
    const row = input.id !== undefined ? byId.get(input.id) : byKey.get(keyOf(input))
    if ((row && seen.has(row.id)) || (input.id !== undefined && !row)) continue
    const kept = (field: ExchangeVariants['keep'][number]) =>
      row !== undefined && exchange !== undefined && row.createdRun !== exchange.runId && exchange.keep.includes(field)
    const price = input.price === undefined || kept('price') ? (row?.price ?? null) : input.price
    const old = input.oldPrice === undefined || kept('oldPrice') ? (row?.oldPrice ?? null) : input.oldPrice
    const values = {
      externalId: input.externalId ?? row?.externalId ?? null,
      title: input.title ?? row?.title ?? input.externalId ?? '',
      article: input.article === undefined ? (row?.article ?? null) : input.article,
      price,
      oldPrice: old !== null && price !== null && old > price ? old : null,
      availability: (kept('availability') ? undefined : input.availability) ?? row?.availability ?? 'in_stock',
      image: input.image === undefined || kept('image') ? (row?.image ?? null) : input.image,
      sort: complete ? sort : (row?.sort ?? after + sort),
    }
    let id: number
    if (row) {
      id = row.id
      const changed = Object.fromEntries(
        Object.entries(values).filter(([k, v]) => (row as Record<string, unknown>)[k] !== v),
      )
      if (Object.keys(changed).length > 0) {
        await trx.updateTable('productVariant').set(changed).where('id', '=', id).execute()
        done.updated++
        if ('title' in changed || 'article' in changed) words = true
      }
    } else {
      const made = await trx
        .insertInto('productVariant')
        .values({ ...values, productId, createdRun: exchange?.runId ?? null })
        .returning('id')
        .executeTakeFirstOrThrow()
      id = made.id
      done.created++
      words = true
    }
    seen.add(id)
    if (input.options !== undefined && input.options.map(optionKey).join('') !== (storedOptions.get(id) ?? '')) {
      await replaceOptions(unit, productId, id, values.sort, input.options)
      optionsChanged = true
    }
  }
  const removable = (row: (typeof stored)[number]) =>
    complete === true || (complete === 'oneC' && row.externalId !== null)
  const gone = complete ? stored.filter((row) => !seen.has(row.id) && removable(row)).map((row) => row.id) : []
  for (const part of chunks(gone)) {
    // Its option rows go with it (on delete cascade); said here too, for a database without the rule.
    await trx.deleteFrom('productProperty').where('variantId', 'in', part).execute()
    await trx.deleteFrom('productVariant').where('id', 'in', part).execute()
  }
  done.removed = gone.length
  if (done.created + done.updated + done.removed === 0 && !optionsChanged) return done
  // Titles, articles and options are words search finds; a price alone is not.
  await unit.touch([productId], { words: words || gone.length > 0 || optionsChanged })
  await trx.updateTable('structure').set({ updatedAt: unit.at }).where('id', '=', productId).execute()
  await followVariants(unit, productId)
  return done
}

/** A variant's option rows replaced: rows of the product naming the variant, after its own characteristics. */
async function replaceOptions(
  unit: ContentWrite,
  productId: number,
  variantId: number,
  place: number,
  options: NonNullable<VariantInput['options']>,
) {
  const trx = unit.trx
  await trx.deleteFrom('productProperty').where('variantId', '=', variantId).execute()
  if (options.length === 0) return
  const rows = await propertyRowsOf(
    trx,
    options.map((row, i) => ({ structureId: productId, row, sort: OPTION_SORT + place * 100 + i })),
  )
  await trx
    .insertInto('productProperty')
    .values(rows.map((row) => ({ ...row, variantId })))
    .execute()
}

/** The product's own price, old price and availability become its variants': the lowest price, the best availability. */
export async function followVariants(unit: ContentWrite, productId: number): Promise<void> {
  const variants = await unit.trx
    .selectFrom('productVariant')
    .select(['price', 'oldPrice', 'availability'])
    .where('productId', '=', productId)
    .execute()
  const product = (await loadProductRows(unit.trx, [productId])).get(productId)
  if (variants.length === 0 || !product) return
  const priced = variants.filter((v) => v.price !== null).sort((a, b) => Number(a.price) - Number(b.price))
  const cheapest = priced[0]
  const best = variants.map((v) => v.availability).sort((a, b) => AVAILABILITY_RANK[a] - AVAILABILITY_RANK[b])[0]
  const want: ProductFields = {
    price: cheapest ? Number(cheapest.price) : null,
    oldPrice: cheapest?.oldPrice != null ? Number(cheapest.oldPrice) : null,
    availability: best,
  }
  const set = Object.fromEntries(
    Object.entries(want).filter(([k, v]) => (product as Record<string, unknown>)[k] !== v),
  ) as ProductFields
  await setProductFields(unit, [{ id: productId, set }])
}

/** What an edit in place («Товары») sets of one variant; a field left undefined stays. */
export interface VariantFields {
  readonly price?: number | null
  readonly oldPrice?: number | null
  readonly availability?: Availability
}

/**
 * Variants' price, old price or availability as given (the caller checks them), then their product's
 * follow, as after writeVariants: one product's variants, each by its id. Returns the ids of
 * product `productId` among them (the others are not its variants and are left alone).
 */
export async function setVariantFields(
  unit: ContentWrite,
  productId: number,
  changes: readonly { readonly id: number; readonly set: VariantFields }[],
): Promise<Set<number>> {
  const rows = await unit.trx
    .selectFrom('productVariant')
    .select(['id', 'price', 'oldPrice', 'availability'])
    .where('productId', '=', productId)
    .execute()
  const byId = new Map(rows.map((row) => [row.id, row]))
  let written = false
  for (const { id, set } of changes) {
    const row = byId.get(id)
    if (!row) continue
    const changed = Object.fromEntries(
      Object.entries(set).filter(([k, v]) => v !== undefined && (row as Record<string, unknown>)[k] !== v),
    )
    if (Object.keys(changed).length === 0) continue
    await unit.trx.updateTable('productVariant').set(changed).where('id', '=', id).execute()
    written = true
  }
  if (written) {
    // A price is no word search finds.
    await unit.touch([productId], { words: false })
    await unit.trx.updateTable('structure').set({ updatedAt: unit.at }).where('id', '=', productId).execute()
    await followVariants(unit, productId)
  }
  return new Set(changes.map((change) => change.id).filter((id) => byId.has(id)))
}
