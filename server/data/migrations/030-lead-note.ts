// Forward-only: a released migration is never edited, a new file follows it.
// A manager's note on a lead (issue 45, item 4): free text the owner keeps with the lead in the
// inbox, at most LEAD_NOTE_MAX characters (src/admin/admin-leads.ts); null until written. It is
// shown in the inbox and the CSV export, and never sent to a delivery channel.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('feedback').addColumn('note', 'text').execute()
}
