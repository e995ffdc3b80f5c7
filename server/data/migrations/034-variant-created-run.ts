// Forward-only: a released migration is never edited, a new file follows it.
// The 1C exchange's run that made each variant (issue 46; docs/decisions/044-onec-owned-fields.md):
// a field the owner keeps from 1C's updates (price, stock) is still written into a variant the
// exchange creates, also by a later file of the same run (offers.xml makes it, prices.xml and
// rests.xml give it its price and stock). Null for the site's own variants and those made before.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('productVariant').addColumn('createdRun', 'integer').execute()
}
