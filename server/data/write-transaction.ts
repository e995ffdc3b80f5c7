// Write transactions: the one way a write of several statements runs, on either database. SQLite
// takes its write lock up front and waits for another process's lock with the event loop free;
// an import's chunks may commit without waiting for the disk (TransactionOptions).
import { sql, type Kysely, type Transaction } from 'kysely'
import type { Database } from './schema'
import { isSqlite } from './sql/dialect'

/** How long a statement waits for another process's write lock (SQLite's busy timeout) before it fails */
export const LOCK_WAIT_MS = 5000
/** How often a write waiting for that lock tries again */
const LOCK_RETRY_MS = 2
const BUSY = Symbol('busy')

const isBusy = (error: unknown) => (error as { code?: unknown } | null)?.code === 'SQLITE_BUSY'

export interface TransactionOptions {
  /**
   * False: the commit does not wait for the disk (SQLite's synchronous=NORMAL for this transaction,
   * PostgreSQL's synchronous_commit=off). A power cut may then take it back, whole and with every
   * such commit after it, never half of one; the next durable commit on the database (any
   * process's) makes it durable too, since both flush the one log. For a long import's steps,
   * which end in a durable write before they answer: each commit waiting for the disk held the
   * write lock 30–40 ms longer under load, and a lead waited behind it (issue 43). Default true.
   */
  readonly durable?: boolean
}

/**
 * Runs fn in a write transaction that takes the write lock up front. In SQLite that is
 * BEGIN IMMEDIATE: a deferred transaction that later upgrades to a write fails at once with
 * SQLITE_BUSY under concurrent writers (better-sqlite3#1067) instead of waiting busy_timeout.
 * While another process holds the lock (an import's step), the write does not wait in SQLite's
 * busy handler, which sleeps with the whole process blocked and in growing steps (up to 100 ms)
 * that can miss the import's short pauses again and again (a lead waited 640 ms, issue 43): it
 * tries again every LOCK_RETRY_MS with the connection and the event loop free in between.
 */
export async function writeTransaction<T>(
  db: Kysely<Database>,
  fn: (trx: Transaction<Database>) => Promise<T>,
  options: TransactionOptions = {},
): Promise<T> {
  const durable = options.durable !== false
  if (!isSqlite(db)) {
    return db.transaction().execute(async (trx) => {
      if (!durable) await sql`SET LOCAL synchronous_commit = off`.execute(trx)
      return fn(trx)
    })
  }
  let deadline: number | null = null
  for (;;) {
    const result = await db.connection().execute(async (conn) => {
      // Set before BEGIN (SQLite refuses it inside a transaction) and reset after the end, on this
      // connection while it is held: no other statement commits in between.
      if (!durable) await sql`PRAGMA synchronous = NORMAL`.execute(conn)
      try {
        return await lockAndRun(conn, fn, (waitMs) => (deadline ??= Date.now() + waitMs))
      } finally {
        if (!durable) await sql`PRAGMA synchronous = FULL`.execute(conn)
      }
    })
    if (result !== BUSY) return result.value
    await new Promise((resolve) => setTimeout(resolve, LOCK_RETRY_MS))
  }
}

/** One try of writeTransaction on SQLite: BUSY when another process holds the write lock. */
async function lockAndRun<T>(
  conn: Kysely<Database>,
  fn: (trx: Transaction<Database>) => Promise<T>,
  deadlineOf: (waitMs: number) => number,
): Promise<typeof BUSY | { value: T }> {
  // The connection's busy timeout is how long to keep trying; 0 for this BEGIN alone, so the
  // connection's other statements keep theirs.
  const { rows } = await sql<{ timeout: number }>`PRAGMA busy_timeout`.execute(conn)
  const waitMs = Number(rows[0]?.timeout ?? LOCK_WAIT_MS)
  const deadline = deadlineOf(waitMs)
  await sql`PRAGMA busy_timeout = 0`.execute(conn)
  try {
    await sql`BEGIN IMMEDIATE`.execute(conn)
  } catch (error) {
    if (isBusy(error) && Date.now() < deadline) return BUSY
    throw error
  } finally {
    await sql.raw(`PRAGMA busy_timeout = ${Math.trunc(waitMs)}`).execute(conn)
  }
  try {
    // A Transaction object bound to this connection without issuing another BEGIN.
    const value = await fn(conn as unknown as Transaction<Database>)
    await sql`COMMIT`.execute(conn)
    return { value }
  } catch (error) {
    await sql`ROLLBACK`.execute(conn).catch(() => {})
    throw error
  }
}
