// Forward-only: a released migration is never edited, a new file follows it.
// The delivery outbox: one row per lead and channel, written in the lead's own transaction and
// claimed by a dispatcher in every process with a lease (docs/decisions/009-lead-delivery.md).
import type { Kysely } from 'kysely'
import { idColumn } from '../sql/dialect'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('leadDelivery')
    .$call(idColumn(db))
    .addColumn('feedbackId', 'integer', (c) => c.notNull().references('feedback.id').onDelete('cascade'))
    // 'email' | 'telegram' | 'webhook'
    .addColumn('channel', 'varchar(20)', (c) => c.notNull())
    // 'pending' | 'sent' | 'dead'
    .addColumn('status', 'varchar(20)', (c) => c.notNull().defaultTo('pending'))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('nextAttemptAt', 'varchar(40)', (c) => c.notNull())
    /** A failure after this time is final: the row is dead (24 h after it was queued or retried) */
    .addColumn('giveUpAt', 'varchar(40)', (c) => c.notNull())
    /** A claimed row is the claimer's until then; a crash lets the lease run out. */
    .addColumn('leaseUntil', 'varchar(40)')
    .addColumn('lastError', 'varchar(2000)')
    .addColumn('sentAt', 'varchar(40)')
    .addColumn('createdAt', 'varchar(40)', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('lead_delivery_due').on('leadDelivery').columns(['status', 'nextAttemptAt']).execute()
  await db.schema
    .createIndex('lead_delivery_lead')
    .on('leadDelivery')
    .columns(['feedbackId', 'channel'])
    .unique()
    .execute()
}
