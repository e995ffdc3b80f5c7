// Forward-only: a released migration is never edited, a new file follows it.
// The catalogue search (issue 22, docs/decisions/030-search.md). `searchIndex` holds, per structure
// record, the normalised tokens of its title and a product's артикул (`name`) and of a product's
// brand, description and characteristics (`body`), written by the application in the record's own
// write transaction, and the артикул's key (B-tree). Each database indexes the same tokens its own way: SQLite an
// external-content FTS5 table kept in step by triggers (plain SQL: no application function, so
// every connection and tool keeps it right), PostgreSQL a generated `simple` tsvector (name
// weighted A, body C) with a GIN index. `searchWord` is the vocabulary a mistyped word is corrected
// from: each token, the word it came from, and how many records use it.
// Rows for the records that exist are written at start-up by the application (the normaliser is
// live code, which a migration must not import): server/catalogue/search/search-index.ts.
import { sql, type Kysely } from 'kysely'
import { isSqlite } from '../sql/dialect'

export async function up(db: Kysely<any>): Promise<void> {
  const sqlite = isSqlite(db)
  await db.schema
    .createTable('searchIndex')
    // In SQLite an INTEGER PRIMARY KEY is the rowid, which the FTS5 table points at.
    .addColumn('structureId', 'integer', (c) => c.primaryKey())
    .addColumn('articleKey', 'varchar(200)')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .$call((table) =>
      sqlite
        ? table
        : table.addColumn('document', sql`tsvector`, (c) =>
            c
              .generatedAlwaysAs(
                sql`setweight(to_tsvector('simple', "name"), 'A') || setweight(to_tsvector('simple', "body"), 'C')`,
              )
              .stored(),
          ),
    )
    .execute()
  await db.schema.createIndex('search_index_article').on('searchIndex').column('articleKey').execute()

  if (sqlite) {
    // remove_diacritics 0: й stays й, as in PostgreSQL's `simple` configuration.
    await sql`CREATE VIRTUAL TABLE "searchIndexFts" USING fts5("name", "body", content='searchIndex', content_rowid='structureId', tokenize='unicode61 remove_diacritics 0', prefix='2 3')`.execute(
      db,
    )
    await sql`CREATE TRIGGER "searchIndex_ai" AFTER INSERT ON "searchIndex" BEGIN
      INSERT INTO "searchIndexFts"(rowid, "name", "body") VALUES (new."structureId", new."name", new."body");
    END`.execute(db)
    await sql`CREATE TRIGGER "searchIndex_ad" AFTER DELETE ON "searchIndex" BEGIN
      INSERT INTO "searchIndexFts"("searchIndexFts", rowid, "name", "body") VALUES ('delete', old."structureId", old."name", old."body");
    END`.execute(db)
    await sql`CREATE TRIGGER "searchIndex_au" AFTER UPDATE ON "searchIndex" BEGIN
      INSERT INTO "searchIndexFts"("searchIndexFts", rowid, "name", "body") VALUES ('delete', old."structureId", old."name", old."body");
      INSERT INTO "searchIndexFts"(rowid, "name", "body") VALUES (new."structureId", new."name", new."body");
    END`.execute(db)
  } else {
    await sql`CREATE INDEX "search_index_document" ON "searchIndex" USING gin ("document")`.execute(db)
  }

  await db.schema
    .createTable('searchWord')
    .addColumn('token', 'varchar(100)', (c) => c.primaryKey())
    .addColumn('word', 'varchar(100)', (c) => c.notNull())
    // The token's first character and length: a mistyped word's candidates are looked up by them.
    .addColumn('head', 'varchar(4)', (c) => c.notNull())
    .addColumn('length', 'integer', (c) => c.notNull())
    .addColumn('uses', 'integer', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('search_word_head').on('searchWord').columns(['head', 'length']).execute()
}
