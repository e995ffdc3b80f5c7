// Forward-only: a released migration is never edited, a new file follows it.
// A 1C file parsed once into staged items (issue 43): each `import` step reads the next items by
// position instead of reading and parsing the whole file again, in whichever process it runs.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('exchangeStaged')
    .addColumn('sessionId', 'varchar(64)', (c) => c.notNull())
    .addColumn('file', 'varchar(500)', (c) => c.notNull())
    // 'group' | 'product' | 'offer': what the item is; the file's order within each
    .addColumn('kind', 'varchar(20)', (c) => c.notNull())
    .addColumn('pos', 'integer', (c) => c.notNull())
    // 1C's Ид (an offer's: its product's)
    .addColumn('itemId', 'varchar(500)', (c) => c.notNull())
    // The item as the import reads it (JSON)
    .addColumn('payload', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('exchange_staged_pk', ['sessionId', 'file', 'kind', 'pos'])
    .execute()
}
