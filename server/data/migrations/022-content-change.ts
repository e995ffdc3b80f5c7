// Forward-only: a released migration is never edited, a new file follows it.
// What each content write changed, as the pages see it (issue 34, docs/decisions/033-selective-invalidation.md):
// one row per content version, written by the write door in the write's own transaction, so another
// process that notices a new version drops only the pages that read what changed. Kept bounded:
// the door deletes rows far behind the newest.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('contentChange')
    .addColumn('version', 'integer', (c) => c.primaryKey())
    // JSON array of the page tags the write changed (src/site/page-tags.ts); null: every page
    .addColumn('pages', 'text')
    .execute()
}
