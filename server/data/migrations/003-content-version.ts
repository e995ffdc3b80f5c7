// Forward-only: a released migration is never edited, a new file follows it.
// One counter that every content write bumps in its own transaction, so every process (PM2
// worker) notices a change within a second and drops its route map and API cache.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('contentVersion')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('version', 'integer', (c) => c.notNull())
    .execute()
  await db.insertInto('contentVersion').values({ id: 1, version: 1 }).execute()
}
