// Forward-only: a released migration is never edited, a new file follows it.
// Personal data done right by default (issue 24, docs/decisions/027-personal-data.md): the log of
// cookie choices, the privacy audit log, the owner's operator details and other small settings, the
// lease and last result of the retention job, and when a lead was anonymised.
import type { Kysely } from 'kysely'
import { idColumn } from '../sql/dialect'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('cookieChoice')
    .$call(idColumn(db))
    // ISO 8601 UTC
    .addColumn('createdAt', 'varchar(40)', (c) => c.notNull())
    // HMAC-SHA-256 of the client address with this site's own key: never the address itself
    .addColumn('ipHash', 'varchar(64)', (c) => c.notNull())
    .addColumn('userAgent', 'varchar(400)')
    // The version (hash) of the cookie notice's text the visitor saw
    .addColumn('textVersion', 'varchar(128)', (c) => c.notNull())
    // 1: analytics allowed; 0: refused (or withdrawn)
    .addColumn('analytics', 'integer', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('cookie_choice_created_at').on('cookieChoice').column('createdAt').execute()
  await db.schema.createIndex('cookie_choice_ip_hash').on('cookieChoice').column('ipHash').execute()

  await db.schema
    .createTable('privacyAudit')
    .$call(idColumn(db))
    .addColumn('at', 'varchar(40)', (c) => c.notNull())
    // 'owner' (the back office), 'retention' (the daily job), 'cli'
    .addColumn('actor', 'varchar(100)', (c) => c.notNull())
    // e.g. 'retention.run', 'subject.export', 'subject.delete', 'subject.anonymise', 'settings.save'
    .addColumn('action', 'varchar(40)', (c) => c.notNull())
    // What was done, without the personal data itself (counts, lead ids, a hash of the search)
    .addColumn('detail', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('privacy_audit_at').on('privacyAudit').column('at').execute()

  await db.schema
    .createTable('privacySetting')
    .addColumn('key', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute()

  await db.schema
    .createTable('privacyJob')
    .addColumn('name', 'varchar(64)', (c) => c.primaryKey())
    // A random id of the process running it, while it runs
    .addColumn('holder', 'varchar(64)')
    // ISO 8601 UTC: another process may take the job over after then
    .addColumn('leaseUntil', 'varchar(40)')
    .addColumn('lastRunAt', 'varchar(40)')
    // JSON: what the last run did
    .addColumn('lastResult', 'text')
    // ISO 8601 UTC: the next run is due then
    .addColumn('nextRunAt', 'varchar(40)', (c) => c.notNull())
    .execute()

  await db.schema.alterTable('feedback').addColumn('anonymizedAt', 'varchar(40)').execute()
  await db.schema.createIndex('feedback_phone_e164').on('feedback').column('phoneE164').execute()
}
