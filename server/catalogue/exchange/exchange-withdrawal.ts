// A full sync's withdrawals (docs/decisions/032-1c-exchange.md): once the last catalogue file of a
// run that holds the whole catalogue is in, the products and then the sections 1C made and did not
// name in the run answer 410, a batch a step; one named again later is published again
// (exchange-groups.ts, exchange-products.ts). Records the owner made on the site have no Ид and are
// never touched.
import type { ContentWrite } from '../../content/content-write'
import { updateRecord } from '../../content/structure-store'
import type { Tally } from './exchange-records'

/** Withdraws (410) up to `limit` records of `kind` the run `runId` did not name; returns how many it looked at. */
export async function withdrawUnseen(
  unit: ContentWrite,
  kind: 'group' | 'product',
  runId: number,
  limit: number,
  tally: Tally,
): Promise<number> {
  const trx = unit.trx
  const rows = await trx
    .selectFrom('exchangeRecord')
    .select(['externalId', 'structureId'])
    .where('kind', '=', kind)
    .where('withdrawn', '=', 0)
    .where('seenRun', '<>', runId)
    .limit(limit)
    .execute()
  for (const row of rows) {
    const exists = await trx
      .selectFrom('structure')
      .select('status')
      .where('id', '=', row.structureId)
      .executeTakeFirst()
    if (exists && exists.status !== 410) {
      await updateRecord(unit, row.structureId, { status: 410 })
      if (kind === 'group') tally.groupsWithdrawn++
      else tally.productsWithdrawn++
    }
    await trx
      .updateTable('exchangeRecord')
      .set({ withdrawn: 1 })
      .where('kind', '=', kind)
      .where('externalId', '=', row.externalId)
      .execute()
  }
  return rows.length
}
