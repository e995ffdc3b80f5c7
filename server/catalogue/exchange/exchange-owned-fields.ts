// Which of a product's fields an exchange writes (docs/decisions/044-onec-owned-fields.md): the
// fields the owner lets 1C overwrite («Настройки», group «Обмен с 1С»), and every field of a product
// the run created (import.xml makes it, offers.xml of the same run gives it its price and stock).
// The writers (exchange-products.ts, exchange-offers.ts) ask here and leave the rest as the site has it.
import type { Transaction } from 'kysely'
import type { Database } from '../../data/schema'
import { ONE_C_FIELDS, type OneCField } from '../../../src/catalogue/one-c-fields'

/** What a run may overwrite in the products it did not create */
export interface OwnedFields {
  readonly runId: number
  readonly overwrite: readonly OneCField[]
}

const CHUNK = 500

/** Of these products, the ones `runId` created: they take every field. */
export async function createdIn(
  trx: Transaction<Database>,
  structureIds: readonly number[],
  runId: number,
): Promise<Set<number>> {
  const created = new Set<number>()
  for (let i = 0; i < structureIds.length; i += CHUNK) {
    const rows = await trx
      .selectFrom('exchangeRecord')
      .select('structureId')
      .where('kind', '=', 'product')
      .where('createdRun', '=', runId)
      .where('structureId', 'in', structureIds.slice(i, i + CHUNK))
      .execute()
    for (const row of rows) created.add(row.structureId)
  }
  return created
}

/**
 * For each product, whether the run writes a field of it: every field when the owner keeps none
 * from 1C (no query), else the fields 1C overwrites, and all of them in the products it created.
 */
export async function fieldWriter(
  trx: Transaction<Database>,
  structureIds: readonly number[],
  owned: OwnedFields | undefined,
): Promise<(structureId: number, field: OneCField) => boolean> {
  if (!owned || ONE_C_FIELDS.every((field) => owned.overwrite.includes(field))) return () => true
  const created = await createdIn(trx, structureIds, owned.runId)
  return (structureId, field) => owned.overwrite.includes(field) || created.has(structureId)
}
