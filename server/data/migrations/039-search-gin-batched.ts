// Forward-only: a released migration is never edited, a new file follows it.
// PostgreSQL's search index takes a write's new entries in its pending list again, and the write
// merges them before it commits (issue 43, docs/decisions/030-search.md, "The GIN index's pending
// list"). Without the list (018), every new index row changed the index in place, one log record
// per word: 341,000 records and 108 MB of a 20,000-product exchange's 222 MB of write-ahead log.
// Merged in bulk, each word of a batch is written once with all its rows: 19 MB. The list never
// outlives the write that filled it (search-index.ts cleans it in the same transaction), so the
// planner never prices a long list into a search, which is why 018 turned it off.
import { sql, type Kysely } from 'kysely'
import { isSqlite } from '../sql/dialect'

export async function up(db: Kysely<any>): Promise<void> {
  if (isSqlite(db)) return
  await sql`ALTER INDEX "search_index_document" SET (fastupdate = on)`.execute(db)
}
