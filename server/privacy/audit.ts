// The privacy audit log (table privacyAudit): who did what with personal data, and when. It names
// lead ids and counts, never a name, phone, e-mail or address: the log must not become a copy of
// what was deleted.
import type { Db } from '../data/db'
import type { AuditEntry } from '../../src/admin/admin-privacy'

export type AuditAction =
  | 'retention.run'
  | 'subject.search'
  | 'subject.export'
  | 'subject.anonymise'
  | 'subject.delete'
  | 'operator.save'
  | 'cookies.export'

export async function audit(
  db: Db,
  entry: { at: Date; actor: string; action: AuditAction; detail: Record<string, unknown> },
): Promise<void> {
  await db
    .insertInto('privacyAudit')
    .values({
      at: entry.at.toISOString(),
      actor: entry.actor.slice(0, 100),
      action: entry.action,
      detail: JSON.stringify(entry.detail),
    })
    .execute()
}

/** The newest entries first, at most `limit`. */
export async function readAudit(db: Db, limit: number): Promise<AuditEntry[]> {
  const rows = await db.selectFrom('privacyAudit').selectAll().orderBy('id', 'desc').limit(limit).execute()
  return rows.map((row) => {
    let detail: Record<string, unknown> = {}
    try {
      detail = JSON.parse(row.detail) as Record<string, unknown>
    } catch {
      /* an unreadable detail shows as empty */
    }
    return { id: row.id, at: row.at, actor: row.actor, action: row.action, detail }
  })
}
