// Forward-only: a released migration is never edited, a new file follows it.
// The idempotency key bound to its request: the hash of the lead request a key first came with,
// so the same key with another request is refused instead of being answered as a repeat
// (docs/decisions/023-lead-dead-letters-and-idempotency.md). Leads stored before have none.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('feedback').addColumn('requestHash', 'varchar(64)').execute()
}
