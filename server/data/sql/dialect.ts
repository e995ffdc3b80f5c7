// What differs between SQLite and PostgreSQL, for db.ts and the migrations (which db.ts loads,
// so they cannot import it back).
import { sql, SqliteAdapter, type CreateTableBuilder, type Kysely, type RawBuilder } from 'kysely'

export function isSqlite(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof SqliteAdapter
}

/** An auto-incrementing integer primary key named id, in the dialect's own form. */
export function idColumn(db: Kysely<any>) {
  const sqlite = isSqlite(db)
  return <T extends CreateTableBuilder<any, any>>(table: T): T =>
    (sqlite
      ? table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
      : table.addColumn('id', 'serial', (c) => c.primaryKey())) as T
}

/** An ORDER BY term for a text column in code point order, the same on both databases. */
export function byteOrder(db: Kysely<any>, column: string): RawBuilder<unknown> {
  // SQLite compares UTF-8 bytes (BINARY), which is code point order; PostgreSQL's "C" collation too.
  return isSqlite(db) ? sql`${sql.ref(column)}` : sql`${sql.ref(column)} collate "C"`
}
