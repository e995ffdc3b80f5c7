// Forward-only: a released migration is never edited, a new file follows it.
// PostgreSQL's search index without a pending list (issue #36). A GIN index with `fastupdate`
// queues new entries in a pending list that every search reads whole until a vacuum merges it;
// the planner prices that in, and after a large write (a price list, the content import) chose a
// scan of all of `searchIndex` for a rare prefix where the index takes a fraction of a
// millisecond. Without it each write updates the index in place (the door writes in one
// transaction anyway), so every query shape can use the index. The list already queued is merged
// now. SQLite's FTS5 has no such list: nothing to do there.
import { sql, type Kysely } from 'kysely'
import { isSqlite } from '../sql/dialect'

export async function up(db: Kysely<any>): Promise<void> {
  if (isSqlite(db)) return
  await sql`ALTER INDEX "search_index_document" SET (fastupdate = off)`.execute(db)
  await sql`SELECT gin_clean_pending_list('search_index_document'::regclass)`.execute(db)
}
