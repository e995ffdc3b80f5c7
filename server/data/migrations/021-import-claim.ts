// Forward-only: a released migration is never edited, a new file follows it.
// Imports that write in short transactions (issue #35, docs/decisions/029-price-list-and-feeds.md):
// an import of the catalogue (the price list, the content import, the 1C exchange) holds a claim
// while it writes its chunks, so no other import interleaves with it and two applies of previews
// made at the same content version cannot both go ahead. The claim is a lease: a process that dies
// midway leaves it to expire. On PostgreSQL, an index of the URLs in code point order lets the
// free-URL lookup ask for "every URL that starts with …" in one range scan whatever the database's
// collation (SQLite compares bytes already).
import { sql, type Kysely } from 'kysely'
import { isSqlite } from '../sql/dialect'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('importClaim')
    // What is claimed: 'catalogue' for every import that writes the catalogue
    .addColumn('kind', 'varchar(40)', (c) => c.primaryKey())
    // A random id of the import that holds it
    .addColumn('holder', 'varchar(64)', (c) => c.notNull())
    // What holds it, for the message another import gets ('price-list', 'content-import', '1c')
    .addColumn('what', 'varchar(100)', (c) => c.notNull())
    // ISO 8601 UTC: after then another import may take it over
    .addColumn('leaseUntil', 'varchar(40)', (c) => c.notNull())
    .execute()
  if (!isSqlite(db)) {
    await sql`CREATE INDEX "structure_url_bytes" ON "structure" ("urlFull" COLLATE "C")`.execute(db)
  }
}
