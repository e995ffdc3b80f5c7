// The IndexNow outbox (docs/decisions/029-price-list-and-feeds.md): the public URLs a content write
// created, changed or deleted, queued in the write's own transaction by the write door, claimed in batches of up to
// 10,000 by the worker of any process with a lease (as the lead outbox, decision 009), so two
// processes never send the same batch; retried with backoff on 429/5xx, dead on 403/422.
import type { Kysely, Transaction } from 'kysely'
import { claimable, leaseAt } from '../../data/outbox-claim'
import type { Database } from '../../data/schema'

type Queryable = Kysely<Database> | Transaction<Database>

/** IndexNow takes up to 10,000 URLs in one request */
export const INDEXNOW_BATCH = 10_000
const LEASE_MS = 2 * 60_000
const FIRST_RETRY_MS = 60_000
const MAX_RETRY_MS = 6 * 60 * 60_000
/** After this many failed tries a batch's URLs are dead (about two days of backoff) */
const MAX_ATTEMPTS = 12
const CHUNK = 500

/** Queues absolute URLs, skipping any already waiting (deduplicated before they are sent too). */
export async function enqueueUrls(trx: Queryable, urls: readonly string[], at = new Date()): Promise<void> {
  const unique = [...new Set(urls)]
  const stamp = at.toISOString()
  for (let i = 0; i < unique.length; i += CHUNK) {
    const part = unique.slice(i, i + CHUNK)
    const waiting = await trx
      .selectFrom('indexNowUrl')
      .select('url')
      .where('url', 'in', part)
      .where('status', '=', 'pending')
      .execute()
    const known = new Set(waiting.map((r) => r.url))
    const fresh = part.filter((url) => !known.has(url))
    if (fresh.length > 0) {
      await trx
        .insertInto('indexNowUrl')
        .values(fresh.map((url) => ({ url, nextAttemptAt: stamp, createdAt: stamp })))
        .execute()
    }
  }
}

export interface ClaimedBatch {
  readonly ids: number[]
  readonly urls: string[]
  readonly attempts: number
  readonly leaseUntil: string
}

/** Claims up to a batch of due URLs for this caller (one statement: two processes never hold the same row). */
export async function claimBatch(
  db: Kysely<Database>,
  at = new Date(),
  limit = INDEXNOW_BATCH,
): Promise<ClaimedBatch | null> {
  const { now, leaseUntil } = leaseAt(at, LEASE_MS)
  const due = claimable(db, db.selectFrom('indexNowUrl').select('id').orderBy('id').limit(limit), now)
  const rows = await db
    .updateTable('indexNowUrl')
    .set((eb) => ({ leaseUntil, attempts: eb('attempts', '+', 1) }))
    .where('id', 'in', due)
    .returning(['id', 'url', 'attempts'])
    .execute()
  if (rows.length === 0) return null
  return {
    ids: rows.map((r) => r.id),
    urls: [...new Set(rows.map((r) => r.url))],
    attempts: Math.max(...rows.map((r) => r.attempts)),
    leaseUntil,
  }
}

async function settle(db: Kysely<Database>, batch: ClaimedBatch, set: Record<string, unknown>): Promise<void> {
  for (let i = 0; i < batch.ids.length; i += CHUNK) {
    await db
      .updateTable('indexNowUrl')
      .set({ leaseUntil: null, ...set })
      .where('id', 'in', batch.ids.slice(i, i + CHUNK))
      .where('status', '=', 'pending')
      .where('leaseUntil', '=', batch.leaseUntil)
      .execute()
  }
}

export function markBatchSent(db: Kysely<Database>, batch: ClaimedBatch, at = new Date()): Promise<void> {
  return settle(db, batch, { status: 'sent', sentAt: at.toISOString(), lastError: null })
}

/** A failed try: the URLs wait (30 s… 6 h, or as long as the endpoint asked), or are dead. */
export function markBatchFailed(
  db: Kysely<Database>,
  batch: ClaimedBatch,
  failure: { message: string; permanent: boolean; retryAfterMs?: number },
  at = new Date(),
): Promise<void> {
  const backoff = Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, batch.attempts - 1), MAX_RETRY_MS)
  const delay = Math.max(backoff, failure.retryAfterMs ?? 0)
  const dead = failure.permanent || batch.attempts >= MAX_ATTEMPTS
  return settle(db, batch, {
    status: dead ? 'dead' : 'pending',
    // A dead URL is never tried again: its nextAttemptAt keeps when it was refused, for the back office.
    nextAttemptAt: new Date(at.getTime() + (dead ? 0 : delay)).toISOString(),
    lastError: failure.message.slice(0, 500),
  })
}

/** The dead batches the back office lists: the newest first, at most this many */
const DEAD_BATCHES = 20

export interface DeadBatch {
  /** What the endpoint answered: 'HTTP 403', 'HTTP 422', 'timeout'… */
  readonly reason: string
  /** When it was refused (ISO) */
  readonly at: string
  readonly urls: number
  /** One of its URLs, for a look */
  readonly example: string
}

/** What the back office shows: waiting, sent and dead URLs, and the dead batches with their reason. */
export async function indexNowStats(db: Kysely<Database>) {
  const rows = await db
    .selectFrom('indexNowUrl')
    .select((eb) => ['status', eb.fn.countAll<number | string>().as('count'), eb.fn.max('lastError').as('lastError')])
    .groupBy('status')
    .execute()
  // URLs refused together share their reason and time: a group is a batch (index_now_url_due covers it).
  const dead = await db
    .selectFrom('indexNowUrl')
    .select((eb) => [
      'lastError',
      'nextAttemptAt',
      eb.fn.countAll<number | string>().as('urls'),
      eb.fn.min('url').as('example'),
    ])
    .where('status', '=', 'dead')
    .groupBy(['nextAttemptAt', 'lastError'])
    .orderBy('nextAttemptAt', 'desc')
    .limit(DEAD_BATCHES)
    .execute()
  const count = (status: string) => Number(rows.find((r) => r.status === status)?.count ?? 0)
  return {
    pending: count('pending'),
    sent: count('sent'),
    dead: count('dead'),
    lastError: rows.find((r) => r.status === 'dead')?.lastError ?? null,
    deadBatches: dead.map((r): DeadBatch => ({
      reason: r.lastError ?? '',
      at: r.nextAttemptAt,
      urls: Number(r.urls),
      example: r.example,
    })),
  }
}
