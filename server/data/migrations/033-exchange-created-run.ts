// Forward-only: a released migration is never edited, a new file follows it.
// The run that made each of 1C's records (issue 46, item 4; docs/decisions/044-onec-owned-fields.md):
// a field the owner keeps from 1C's updates is still written into a product the exchange creates,
// and a product created from import.xml takes its price and stock from offers.xml in the same run.
// Null for the records made before: they are updates.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('exchangeRecord').addColumn('createdRun', 'integer').execute()
}
