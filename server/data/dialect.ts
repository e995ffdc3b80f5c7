// What differs between SQLite and PostgreSQL, for db.ts and the migrations (which db.ts loads,
// so they cannot import it back).
import { SqliteAdapter, type CreateTableBuilder, type Kysely } from 'kysely'

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
