// Prices and stock from 1C's offers (docs/decisions/032-1c-exchange.md): the products the offers
// name, by 1C's Ид, take the price, the old price and the availability the offers say, and their
// characteristics' offers become their variants (with their pictures); what a file does not say
// stays as it is. The rows are written by the product-row repository (products/product-rows.ts).
import type { Availability } from '../../data/schema'
import type { ContentWrite } from '../../content/content-write'
import { loadProductRows, setProductFields, type ProductChange, type ProductFields } from '../products/product-rows'
import { recordsOf, type Tally } from './exchange-records'
import { fieldWriter, type OwnedFields } from './exchange-owned-fields'
import { writeVariants, type ExchangeVariants, type VariantInput } from '../products/variant-rows'

export interface OfferInput {
  /** 1C's Ид of the product the offers are of */
  readonly productId: string
  /** undefined: the file does not say */
  readonly price?: number | null
  readonly oldPrice?: number | null
  readonly availability?: Availability
  /** Its characteristics' offers as its variants (exchange-variants.ts, decision 043) */
  readonly variants?: readonly VariantInput[]
}

/**
 * Prices and availability of the products the offers name and of their variants (and a variant's
 * picture), those the owner lets 1C overwrite (`owned`, exchange-owned-fields.ts; all without it; a
 * product or a variant the run created takes all), and the variants themselves: their titles,
 * артикулы and options are 1C's (`complete`: a full offers file, so a variant from 1C not in it is
 * removed; the site's own stay); returns the Ид 1C named that the site does not have.
 */
export async function applyOffers(
  unit: ContentWrite,
  offers: readonly OfferInput[],
  tally: Tally,
  owned: OwnedFields | undefined,
  complete = false,
): Promise<string[]> {
  const known = await recordsOf(
    unit.trx,
    'product',
    offers.map((o) => o.productId),
  )
  const rows = await loadProductRows(
    unit.trx,
    [...known.values()].map((k) => k.structureId),
  )
  const writes = await fieldWriter(unit.trx, [...rows.keys()], owned)
  const unknown: string[] = []
  const changes: ProductChange[] = []
  const withVariants: [number, readonly VariantInput[], ExchangeVariants['keep']][] = []
  for (const offer of offers) {
    const record = known.get(offer.productId)
    const row = record && rows.get(record.structureId)
    if (!record || !row) {
      unknown.push(offer.productId)
      continue
    }
    // Its own price and availability follow its variants (variant-rows.ts).
    if (offer.variants) {
      const keep = [
        ...(writes(row.id, 'price') ? [] : (['price', 'oldPrice'] as const)),
        ...(writes(row.id, 'stock') ? [] : (['availability'] as const)),
        ...(writes(row.id, 'images') ? [] : (['image'] as const)),
      ]
      withVariants.push([record.structureId, offer.variants, keep])
      continue
    }
    const set: ProductFields = {}
    const price = writes(row.id, 'price')
    if (price && offer.price !== undefined && offer.price !== row.price) set.price = offer.price
    if (price && offer.oldPrice !== undefined && offer.oldPrice !== row.oldPrice) set.oldPrice = offer.oldPrice
    if (writes(row.id, 'stock') && offer.availability !== undefined && offer.availability !== row.availability)
      set.availability = offer.availability
    changes.push({ id: record.structureId, set })
  }
  tally.offersUpdated += await setProductFields(unit, changes)
  for (const [id, variants, keep] of withVariants) {
    // A full file names all of 1C's characteristics; the site's own variants (no Ид) stay.
    const whole = complete && 'oneC'
    const done = await writeVariants(unit, id, variants, whole, owned && { runId: owned.runId, keep })
    if (done.created + done.updated + done.removed > 0) tally.offersUpdated++
  }
  tally.offersSkipped += unknown.length
  return unknown
}
