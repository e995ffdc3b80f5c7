// Whether the inbox's search has its index (migration 019, docs/decisions/030-search.md). On
// PostgreSQL it needs the pg_trgm extension, which a hosted server may refuse: the search then
// scans every lead, as before the index, and the start says so once a start.
import { sql } from 'kysely'
import type { Db } from './db'
import { isSqlite } from './sql/dialect'

/** PostgreSQL's trigram index of `feedback.searchText` */
export const LEAD_SEARCH_INDEX = 'feedback_search_trgm'

/** The warning for the operator, or null when the index is there (always on SQLite). */
export async function leadSearchIndexWarning(db: Db): Promise<string | null> {
  if (isSqlite(db)) return null
  const { rows } = await sql<{ found: string | null }>`select to_regclass(${LEAD_SEARCH_INDEX})::text as found`.execute(
    db,
  )
  if (rows[0]?.found) return null
  return (
    'The inbox search has no index: PostgreSQL did not allow CREATE EXTENSION pg_trgm, so a search reads every lead. ' +
    `To index it, run as a privileged user: CREATE EXTENSION pg_trgm; CREATE INDEX ${LEAD_SEARCH_INDEX} ON feedback USING gin ("searchText" gin_trgm_ops) WITH (fastupdate = off)`
  )
}
