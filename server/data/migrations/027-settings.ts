// Forward-only: a released migration is never edited, a new file follows it.
// The back office's «Настройки» (issue 45, docs/decisions/039-settings.md): the owner's settings as
// key/value rows, one version number every write bumps (each process reads it every 2 s and
// reloads the rows when it moved), and the log of who changed which setting when (never a value).
import type { Kysely } from 'kysely'
import { idColumn } from '../sql/dialect'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('appSetting')
    .addColumn('key', 'varchar(100)', (c) => c.primaryKey())
    // Secrets too (the SMTP password, the bot token, the webhook secret), for the server's own
    // use; the 1C password only as its scrypt hash
    .addColumn('value', 'text', (c) => c.notNull())
    // ISO 8601 UTC
    .addColumn('updatedAt', 'varchar(40)', (c) => c.notNull())
    .execute()

  await db.schema
    .createTable('appSettingVersion')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('version', 'integer', (c) => c.notNull())
    .execute()
  await db.insertInto('appSettingVersion').values({ id: 1, version: 1 }).execute()

  await db.schema
    .createTable('appSettingAudit')
    .$call(idColumn(db))
    .addColumn('at', 'varchar(40)', (c) => c.notNull())
    // 'сессия' (the back office) or 'токен' (the API)
    .addColumn('who', 'varchar(100)', (c) => c.notNull())
    // The setting's key, e.g. 'smtp.password'
    .addColumn('key', 'varchar(100)', (c) => c.notNull())
    // 'set', 'cleared' or 'generated'
    .addColumn('action', 'varchar(40)', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('app_setting_audit_at').on('appSettingAudit').column('at').execute()
}
