// Prices and stock from 1C's offers (docs/decisions/032-1c-exchange.md): the products the offers
// name, by 1C's Ид, take the price, the old price and the availability the offers say; what a file
// does not say stays as it is. Every write takes the write door's unit.
import type { Availability } from '../../data/schema'
import type { ContentWrite } from '../../content/content-write'
import { recordsOf, type Tally } from './exchange-records'

const CHUNK = 500
export interface OfferInput {
  /** 1C's Ид of the product the offers are of */
  readonly productId: string
  /** undefined: the file does not say */
  readonly price?: number | null
  readonly oldPrice?: number | null
  readonly availability?: Availability
}

/** Prices and availability of the products the offers name; returns the Ид 1C named that the site does not have. */
export async function applyOffers(unit: ContentWrite, offers: readonly OfferInput[], tally: Tally): Promise<string[]> {
  const trx = unit.trx
  const known = await recordsOf(
    trx,
    'product',
    offers.map((o) => o.productId),
  )
  const ids = [...known.values()].map((k) => k.structureId)
  const rows = new Map<number, { price: number | null; oldPrice: number | null; availability: Availability }>()
  for (let i = 0; i < ids.length; i += CHUNK) {
    const part = await trx
      .selectFrom('product')
      .select(['structureId', 'price', 'oldPrice', 'availability'])
      .where('structureId', 'in', ids.slice(i, i + CHUNK))
      .execute()
    for (const row of part) rows.set(row.structureId, row)
  }
  const unknown: string[] = []
  const changes: {
    id: number
    set: Partial<{ price: number | null; oldPrice: number | null; availability: Availability }>
  }[] = []
  for (const offer of offers) {
    const record = known.get(offer.productId)
    const row = record && rows.get(record.structureId)
    if (!record || !row) {
      unknown.push(offer.productId)
      continue
    }
    const set: (typeof changes)[number]['set'] = {}
    if (offer.price !== undefined && offer.price !== row.price) set.price = offer.price
    if (offer.oldPrice !== undefined && offer.oldPrice !== row.oldPrice) set.oldPrice = offer.oldPrice
    if (offer.availability !== undefined && offer.availability !== row.availability)
      set.availability = offer.availability
    if (Object.keys(set).length > 0) changes.push({ id: record.structureId, set })
  }
  // Prices and stock: no word search finds changes.
  await unit.touch(
    changes.map((c) => c.id),
    { words: false },
  )
  for (const change of changes) {
    await trx.updateTable('product').set(change.set).where('structureId', '=', change.id).execute()
  }
  for (let i = 0; i < changes.length; i += CHUNK) {
    const ids = changes.slice(i, i + CHUNK).map((c) => c.id)
    await trx.updateTable('structure').set({ updatedAt: unit.at }).where('id', 'in', ids).execute()
  }
  tally.offersUpdated += changes.length
  tally.offersSkipped += unknown.length
  return unknown
}

/**
 * A full sync's end: up to `limit` records of 1C's catalogue (of `kind`) that this run did not name
 * are withdrawn (410), never deleted. Returns how many it withdrew; fewer than `limit`: done.
 */
