// Counters kept in the database, so a limit holds across every PM2 worker and every host on one
// PostgreSQL, not per process: the @fastify/rate-limit store of LEAD_RATE_LIMIT, and the failed
// credentials of every way into the back office (server/admin/credential-guard.ts), each in its own
// key space. One atomic upsert a count: a new window starts when the old one has run out. Keys hold
// a hash of the address, never the address itself.
import { createHash } from 'node:crypto'
import { sql } from 'kysely'
import type { Db } from '../data/db'

type Callback = (error: Error | null, result?: { current: number; ttl: number }) => void

/** Rows whose window ended this long ago are deleted now and then. */
const STALE_MS = 60 * 60 * 1000
const CLEANUP_EVERY = 200

function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('base64url').slice(0, 32)
}

export async function countRequest(db: Db, key: string, windowMs: number, now = Date.now()) {
  const expired = sql<boolean>`${sql.ref('rateLimit.windowStart')} + ${windowMs} <= ${now}`
  const row = await db
    .insertInto('rateLimit')
    .values({ key: hashKey(key), windowStart: now, count: 1 })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        count: sql`CASE WHEN ${expired} THEN 1 ELSE ${sql.ref('rateLimit.count')} + 1 END`,
        windowStart: sql`CASE WHEN ${expired} THEN ${now} ELSE ${sql.ref('rateLimit.windowStart')} END`,
      }),
    )
    .returning(['count', 'windowStart'])
    .executeTakeFirstOrThrow()
  // PostgreSQL returns bigint columns as strings.
  const windowStart = Number(row.windowStart)
  return { current: Number(row.count), ttl: Math.max(0, windowStart + windowMs - now) }
}

/** The count of the key's current window without counting: 0 when there is none or it has run out. */
export async function peekCount(db: Db, key: string, windowMs: number, now = Date.now()) {
  const row = await db
    .selectFrom('rateLimit')
    .select(['count', 'windowStart'])
    .where('key', '=', hashKey(key))
    .executeTakeFirst()
  const windowStart = Number(row?.windowStart ?? 0)
  if (!row || windowStart + windowMs <= now) return { current: 0, ttl: 0 }
  return { current: Number(row.count), ttl: windowStart + windowMs - now }
}

/** Takes one count back from the key's window (an attempt counted first that turned out right). */
export async function uncount(db: Db, key: string): Promise<void> {
  await db
    .updateTable('rateLimit')
    .set({ count: sql`${sql.ref('count')} - 1` })
    .where('key', '=', hashKey(key))
    .where('count', '>', 0)
    .execute()
}

/** The store class @fastify/rate-limit instantiates (`store` option), bound to one database. */
export function databaseRateLimitStore(db: Db) {
  let calls = 0
  return class DatabaseRateLimitStore {
    incr(key: string, callback: Callback, timeWindow: number): void {
      if (++calls % CLEANUP_EVERY === 0) {
        void db
          .deleteFrom('rateLimit')
          .where('windowStart', '<', Date.now() - STALE_MS)
          .execute()
          .catch(() => {})
      }
      countRequest(db, key, timeWindow).then(
        (result) => callback(null, result),
        (error: Error) => callback(error),
      )
    }

    child(): DatabaseRateLimitStore {
      return new DatabaseRateLimitStore()
    }
  }
}
