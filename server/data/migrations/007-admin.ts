// Forward-only: a released migration is never edited, a new file follows it.
// The back office (issue 10): its sessions, kept in the database so that signing out revokes a
// session for every PM2 worker and host, and the lead's search text, so that the inbox finds a
// lead by name, e-mail or phone digits the same way in SQLite and PostgreSQL (SQLite's lower()
// and LIKE fold ASCII only, so Cyrillic names are folded once, in JavaScript, when stored).
import type { Kysely } from 'kysely'

// Frozen copy of the search text as this release made it: a migration never changes when the
// live code does.
function leadSearchText(lead: { username: string; email: string; phone: string; phoneE164: string | null }): string {
  const digits = (text: string) => text.replace(/\D/g, '')
  const parts = [lead.username, lead.email, lead.phone, digits(lead.phone), digits(lead.phoneE164 ?? '')]
  return parts.map((part) => part.toLocaleLowerCase('ru-RU')).join('\n')
}

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('adminSession')
    // The SHA-256 of the session's random token: a copy of the table signs nobody in
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    // Which admin secret signed it: a session of a replaced secret is refused even if it returns
    .addColumn('keyFingerprint', 'varchar(64)', (c) => c.notNull())
    .addColumn('createdAt', 'varchar(40)', (c) => c.notNull())
    .addColumn('lastSeenAt', 'varchar(40)', (c) => c.notNull())
    .addColumn('expiresAt', 'varchar(40)', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('admin_session_expires').on('adminSession').column('expiresAt').execute()

  await db.schema.alterTable('feedback').addColumn('searchText', 'text').execute()
  const rows = await db.selectFrom('feedback').select(['id', 'username', 'email', 'phone', 'phoneE164']).execute()
  for (const row of rows) {
    await db
      .updateTable('feedback')
      .set({ searchText: leadSearchText(row) })
      .where('id', '=', row.id)
      .execute()
  }
}
