// SQLite's prepared statements kept for reuse (server/data/db.ts opens every SQLite database with
// this cache).
import type { SQLiteDatabase } from './sqlite-driver'

/** What the statement cache keeps at most: statements, and characters of their SQL together */
const STATEMENT_CACHE = { statements: 500, sqlChars: 512 * 1024, oneSqlChars: 8 * 1024 }

/**
 * Kysely's SQLite driver prepares every query anew; a page runs the same few statements each time,
 * so prepared statements are kept by their SQL text, the least recently used going first. Safe:
 * Kysely uses one connection at a time, and SQLite re-prepares a kept statement by itself after a
 * schema change. Bounded by the SQL's length too, since a statement's memory follows it (about 40
 * bytes per character, outside V8's heap, so no collection is ever hurried by it): an import's
 * inserts of hundreds of rows each are statements of half a megabyte that never repeat exactly, and
 * 500 of them kept made an exchange's process grow by 400 MiB (issue 43). Those are not kept.
 */
export function withStatementCache(database: SQLiteDatabase): SQLiteDatabase {
  const prepare = database.prepare.bind(database)
  const statements = new Map<string, ReturnType<typeof prepare>>()
  let chars = 0
  database.prepare = ((source: string) => {
    const kept = statements.get(source)
    if (kept) {
      statements.delete(source)
      statements.set(source, kept)
      return kept
    }
    const statement = prepare(source)
    if (source.length > STATEMENT_CACHE.oneSqlChars) return statement
    statements.set(source, statement)
    chars += source.length
    while (statements.size > STATEMENT_CACHE.statements || chars > STATEMENT_CACHE.sqlChars) {
      const oldest = statements.keys().next().value!
      chars -= oldest.length
      statements.delete(oldest)
    }
    return statement
  }) as typeof database.prepare
  return database
}
