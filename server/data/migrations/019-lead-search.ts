// Forward-only: a released migration is never edited, a new file follows it.
// The inbox's search by an index (issue #36, docs/decisions/030-search.md): a substring of a lead's
// `searchText` (name, e-mail and phone, folded) was found by a LIKE scan of every lead, 93–97 ms at
// 100,000 leads. The query keeps its LIKE, which stays the definition of a match; an index of
// trigrams narrows the rows it is checked on.
// - SQLite: an external-content FTS5 table with the trigram tokenizer, kept in step by triggers
//   (plain SQL, as `searchIndexFts`: every connection and tool keeps it right). `secure-delete` is
//   on, so an anonymised or erased lead's trigrams leave the index's pages at once instead of
//   staying behind a delete marker until a merge: a person's data does not survive in the index.
// - PostgreSQL: a GIN index with pg_trgm's `gin_trgm_ops`, which LIKE '%…%' uses as it is. The
//   extension may be refused (a hosted server that allows only some extensions, a user without the
//   right): the migration then leaves the search to its scan, as before, and the start goes on; the
//   database plugin warns at every start while the index is missing (server/data/lead-search-index.ts).
import { sql, type Kysely } from 'kysely'
import { isSqlite } from '../sql/dialect'

export async function up(db: Kysely<any>): Promise<void> {
  if (isSqlite(db)) {
    await sql`CREATE VIRTUAL TABLE "feedbackSearch" USING fts5("searchText", content='feedback', content_rowid='id', tokenize='trigram')`.execute(
      db,
    )
    await sql`INSERT INTO "feedbackSearch"("feedbackSearch", rank) VALUES ('secure-delete', 1)`.execute(db)
    await sql`INSERT INTO "feedbackSearch"("feedbackSearch") VALUES ('rebuild')`.execute(db)
    await sql`CREATE TRIGGER "feedback_search_ai" AFTER INSERT ON "feedback" BEGIN
      INSERT INTO "feedbackSearch"(rowid, "searchText") VALUES (new."id", new."searchText");
    END`.execute(db)
    await sql`CREATE TRIGGER "feedback_search_ad" AFTER DELETE ON "feedback" BEGIN
      INSERT INTO "feedbackSearch"("feedbackSearch", rowid, "searchText") VALUES ('delete', old."id", old."searchText");
    END`.execute(db)
    await sql`CREATE TRIGGER "feedback_search_au" AFTER UPDATE OF "searchText" ON "feedback" BEGIN
      INSERT INTO "feedbackSearch"("feedbackSearch", rowid, "searchText") VALUES ('delete', old."id", old."searchText");
      INSERT INTO "feedbackSearch"(rowid, "searchText") VALUES (new."id", new."searchText");
    END`.execute(db)
    return
  }
  // Migrations run in one transaction on PostgreSQL: a refused CREATE EXTENSION must not abort it.
  await sql`SAVEPOINT lead_search_trgm`.execute(db)
  try {
    await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db)
    await sql`RELEASE SAVEPOINT lead_search_trgm`.execute(db)
  } catch {
    // Refused, or another site's migration in the same database created it at the same moment
    // (then it is there now, and the index below is made all the same).
    await sql`ROLLBACK TO SAVEPOINT lead_search_trgm`.execute(db)
  }
  // The extension may live in another schema than the site's (installed once per database).
  const { rows } = await sql<{ schema: string }>`
    SELECT n.nspname AS schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
    WHERE e.extname = 'pg_trgm'`.execute(db)
  const schema = rows[0]?.schema
  if (schema === undefined) return
  await sql`CREATE INDEX "feedback_search_trgm" ON "feedback" USING gin ("searchText" ${sql.id(schema)}.gin_trgm_ops) WITH (fastupdate = off)`.execute(
    db,
  )
}
