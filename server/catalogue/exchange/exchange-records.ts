// The 1C exchange's ties between 1C's Ид and the site's records (docs/decisions/032-1c-exchange.md):
// `exchangeRecord` keeps, for each group and product the exchange made, 1C's Ид, so a group renamed
// or moved in 1C stays the same section (its old URL answers 301) and a product stays the same page.
// Here: the tallies of a run and the lookups every writer of the exchange shares (the sections of 1C's
// groups are in exchange-groups.ts, its products in exchange-products.ts, a full sync's withdrawals
// in exchange-withdrawal.ts). Records the owner made on the site have no Ид and are never touched.
import type { Transaction } from 'kysely'
import type { Database } from '../../data/schema'
import { insertRows } from '../products/product-row-reads'
type Trx = Transaction<Database>

const CHUNK = 500

export interface Tally {
  groupsCreated: number
  groupsUpdated: number
  groupsWithdrawn: number
  productsCreated: number
  productsUpdated: number
  productsWithdrawn: number
  imagesTaken: number
  offersUpdated: number
  offersSkipped: number
  variants: number
  /** Orders whose status 1C sent back (`type=sale&mode=file`) */
  ordersUpdated: number
}

export const emptyTally = (): Tally => ({
  groupsCreated: 0,
  groupsUpdated: 0,
  groupsWithdrawn: 0,
  productsCreated: 0,
  productsUpdated: 0,
  productsWithdrawn: 0,
  imagesTaken: 0,
  offersUpdated: 0,
  offersSkipped: 0,
  variants: 0,
  ordersUpdated: 0,
})

/** The structure records of 1C's Ид of one kind. */
export async function recordsOf(
  trx: Trx,
  kind: 'group' | 'product',
  externalIds: readonly string[],
): Promise<Map<string, { structureId: number; withdrawn: number }>> {
  const out = new Map<string, { structureId: number; withdrawn: number }>()
  for (let i = 0; i < externalIds.length; i += CHUNK) {
    const rows = await trx
      .selectFrom('exchangeRecord')
      .innerJoin('structure', 'structure.id', 'exchangeRecord.structureId')
      .select(['exchangeRecord.externalId', 'exchangeRecord.structureId', 'exchangeRecord.withdrawn'])
      .where('exchangeRecord.kind', '=', kind)
      .where('exchangeRecord.externalId', 'in', externalIds.slice(i, i + CHUNK))
      .execute()
    for (const row of rows) out.set(row.externalId, { structureId: row.structureId, withdrawn: row.withdrawn })
  }
  return out
}

export async function remember(
  trx: Trx,
  kind: 'group' | 'product',
  externalId: string,
  structureId: number,
  runId: number,
  /** The record's structure was made now: the run is its creator (decision 044) */
  created = false,
) {
  await rememberAll(trx, kind, [{ externalId, structureId }], runId, created)
}

/** `remember` for many Ид of one kind (each once) in a statement per 500: one round trip, not one each. */
export async function rememberAll(
  trx: Trx,
  kind: 'group' | 'product',
  ties: readonly { readonly externalId: string; readonly structureId: number }[],
  runId: number,
  created = false,
) {
  const made = created ? { createdRun: runId } : {}
  const size = insertRows(trx)
  for (let i = 0; i < ties.length; i += size) {
    await trx
      .insertInto('exchangeRecord')
      .values(ties.slice(i, i + size).map((t) => ({ kind, ...t, seenRun: runId, withdrawn: 0, ...made })))
      .onConflict((oc) =>
        oc.columns(['kind', 'externalId']).doUpdateSet((eb) => ({
          structureId: eb.ref('excluded.structureId'),
          seenRun: runId,
          withdrawn: 0,
          ...made,
        })),
      )
      .execute()
  }
}
