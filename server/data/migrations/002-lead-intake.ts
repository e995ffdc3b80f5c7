// Forward-only: a released migration is never edited, a new file follows it.
// The lead intake (issue 3): the consent record, the E.164 phone, the spam mark and the
// idempotency key, as columns of the lead itself so one INSERT commits all of them together.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  // One column per statement: SQLite's ALTER TABLE adds a single column at a time.
  const columns: [name: string, type: 'varchar(40)' | 'varchar(64)' | 'varchar(128)' | 'varchar(1000)' | 'integer'][] =
    [
      ['phoneE164', 'varchar(40)'],
      ['idempotencyKey', 'varchar(128)'],
      ['consentAt', 'varchar(40)'],
      ['consentIp', 'varchar(64)'],
      ['consentUserAgent', 'varchar(1000)'],
      ['consentVersion', 'varchar(128)'],
    ]
  for (const [name, type] of columns) {
    await db.schema.alterTable('feedback').addColumn(name, type).execute()
  }
  // Rows from before this migration were never checked, so they are not spam.
  await db.schema
    .alterTable('feedback')
    .addColumn('spam', 'integer', (c) => c.notNull().defaultTo(0))
    .execute()
  // NULL keys (leads sent without one) do not collide in either dialect.
  await db.schema.createIndex('feedback_idempotency_key').unique().on('feedback').column('idempotencyKey').execute()
  await db.schema.createIndex('feedback_created_at').on('feedback').column('createdAt').execute()
}
