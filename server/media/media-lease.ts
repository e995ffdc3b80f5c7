// The leases on media being made (table mediaLease): while one process makes a missing variant
// or share image for a shared bucket, the others wait for it instead of making it too. A lease
// ends when its holder drops it, or when it runs out (a holder that crashed).
import type { Db } from '../data/db'

/** Longer than the slowest encode of the largest allowed image on a busy core. */
export const MEDIA_LEASE_MS = 60_000

/**
 * Takes the lease on a key for `holder` (a random id of one attempt) when nobody holds it (or its lease ran out). One statement: of two
 * processes asking at once, exactly one gets it, in PostgreSQL and SQLite alike.
 */
export async function takeMediaLease(db: Db, key: string, holder: string, at = new Date()): Promise<boolean> {
  const leaseUntil = new Date(at.getTime() + MEDIA_LEASE_MS).toISOString()
  const row = await db
    .insertInto('mediaLease')
    .values({ key, holder, leaseUntil })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({ holder, leaseUntil }).where('mediaLease.leaseUntil', '<=', at.toISOString()),
    )
    .returning('holder')
    .executeTakeFirst()
  return row?.holder === holder
}

/** Ends this holder's lease on a key (a lease another process took over stays). */
export async function dropMediaLease(db: Db, key: string, holder: string): Promise<void> {
  await db.deleteFrom('mediaLease').where('key', '=', key).where('holder', '=', holder).execute()
}
