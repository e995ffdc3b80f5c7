// Forward-only: a released migration is never edited, a new file follows it.
// Images in a bucket that several hosts share (issue 25): a variant or share image missing from
// the bucket is made by one host while the others wait for it. The host that makes it holds a
// lease on its key, as the lead outbox's dispatcher holds a delivery.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('mediaLease')
    // The media path being made, e.g. uploads/<hash>.1500x1000-640.avif
    .addColumn('key', 'varchar(1000)', (c) => c.primaryKey())
    // A random id of the process that makes it
    .addColumn('holder', 'varchar(64)', (c) => c.notNull())
    // ISO 8601 UTC: after then another process may take it over
    .addColumn('leaseUntil', 'varchar(40)', (c) => c.notNull())
    .execute()
}
