// The claim both outboxes make (lead deliveries, IndexNow URLs): rows that are pending, due, and
// held by no one, leased to the caller and their attempt counted in one statement, so two processes
// never hold the same row. PostgreSQL skips rows another transaction is claiming (FOR UPDATE SKIP
// LOCKED); SQLite has one writer at a time, so the conditional UPDATE … RETURNING is atomic as it is.
import type { Kysely, SelectQueryBuilder } from 'kysely'
import { isSqlite } from './sql/dialect'
import type { Database } from './schema'

/** The tables of work with a status, a next attempt time and a lease. */
export type OutboxTable = 'leadDelivery' | 'indexNowUrl'

/** What a claim at `at` compares with and the lease it sets. */
export function leaseAt(at: Date, leaseMs: number): { now: string; leaseUntil: string } {
  return { now: at.toISOString(), leaseUntil: new Date(at.getTime() + leaseMs).toISOString() }
}

/** `ids` (a select of the table's ids, ordered and limited by the caller) narrowed to the claimable rows. */
export function claimable<O>(
  db: Kysely<Database>,
  ids: SelectQueryBuilder<Database, OutboxTable, O>,
  now: string,
): SelectQueryBuilder<Database, OutboxTable, O> {
  const due = ids
    .where('status', '=', 'pending')
    .where('nextAttemptAt', '<=', now)
    .where((eb) => eb.or([eb('leaseUntil', 'is', null), eb('leaseUntil', '<=', now)]))
  return isSqlite(db) ? due : due.forUpdate().skipLocked()
}
