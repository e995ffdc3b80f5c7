// Forward-only: a released migration is never edited, a new file follows it.
// Request counters shared by every process (PM2 workers, hosts on one PostgreSQL), so a rate
// limit holds for the whole site rather than per worker.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('rateLimit')
    .addColumn('key', 'varchar(200)', (c) => c.primaryKey())
    // Milliseconds since the epoch: too large for a 32-bit integer
    .addColumn('windowStart', 'bigint', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('rate_limit_window').on('rateLimit').column('windowStart').execute()
}
