// The lead delivery outbox (docs/decisions/009-lead-delivery.md): one row per lead and channel,
// written in the lead's own transaction, claimed with a lease by the dispatcher of any process,
// retried with jittered exponential backoff for at least a day, then dead with its last error.
import type { Kysely, Transaction } from 'kysely'
import { claimable, leaseAt } from '../../data/outbox-claim'
import type { Database, DeliveryChannel, DeliveryStatus, LeadDeliveryRow } from '../../data/schema'

/** The first retry waits about this long; each further one twice as long, up to the ceiling. */
const FIRST_RETRY_MS = 30_000
const MAX_RETRY_MS = 60 * 60_000
/** A row keeps being retried for this long after it was queued (or put back by hand). */
const GIVE_UP_AFTER_MS = 24 * 60 * 60_000
/** A claim is the claimer's for this long: longer than any channel's own timeouts. */
const LEASE_MS = 2 * 60_000

const MAX_ERROR_LENGTH = 2000

/** How a send failed, as the channel sees it. */
export interface DeliveryFailure {
  readonly message: string
  /** The receiver refused the message itself: retrying cannot help */
  readonly permanent?: boolean
  /** The receiver asked to wait this long (Telegram's retry_after, HTTP Retry-After) */
  readonly retryAfterMs?: number
}

/** Queues one delivery per channel; called inside the transaction that stores the lead. */
export async function enqueueDeliveries(
  trx: Transaction<Database> | Kysely<Database>,
  feedbackId: number,
  channels: readonly DeliveryChannel[],
  at = new Date(),
): Promise<void> {
  if (channels.length === 0) return
  const createdAt = at.toISOString()
  const giveUpAt = new Date(at.getTime() + GIVE_UP_AFTER_MS).toISOString()
  await trx
    .insertInto('leadDelivery')
    .values(channels.map((channel) => ({ feedbackId, channel, nextAttemptAt: createdAt, giveUpAt, createdAt })))
    .execute()
}

/** Claims up to `limit` due rows for this caller (server/data/outbox-claim.ts). */
export async function claimDue(
  db: Kysely<Database>,
  limit: number,
  channels: readonly DeliveryChannel[],
  at = new Date(),
): Promise<LeadDeliveryRow[]> {
  if (channels.length === 0) return []
  const { now, leaseUntil } = leaseAt(at, LEASE_MS)
  const due = claimable(
    db,
    db
      .selectFrom('leadDelivery')
      .select('id')
      // Rows of a channel this process does not have stay for one that does (or for the operator).
      .where('channel', 'in', [...channels])
      .orderBy('nextAttemptAt')
      .limit(limit),
    now,
  )
  return db
    .updateTable('leadDelivery')
    .set((eb) => ({ leaseUntil, attempts: eb('attempts', '+', 1) }))
    .where('id', 'in', due)
    .returningAll()
    .execute()
}

/** Marks a claimed row sent. False when the lease was lost (the row went to another claimer). */
export async function markSent(db: Kysely<Database>, row: LeadDeliveryRow, at = new Date()): Promise<boolean> {
  const result = await db
    .updateTable('leadDelivery')
    .set({ status: 'sent', sentAt: at.toISOString(), leaseUntil: null, lastError: null })
    .where('id', '=', row.id)
    .where('status', '=', 'pending')
    .where('leaseUntil', '=', row.leaseUntil)
    .executeTakeFirst()
  return Number(result.numUpdatedRows) === 1
}

/** The wait before the next try after `attempts` failed ones: 30 s doubling up to 1 h, ±20 %. */
function retryDelayMs(attempts: number, random = Math.random): number {
  const base = Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), MAX_RETRY_MS)
  return Math.round(base * (0.8 + 0.4 * random()))
}

/** Records a failed try: the row waits for its next one, or is dead when retrying is over. */
export async function markFailed(
  db: Kysely<Database>,
  row: LeadDeliveryRow,
  failure: DeliveryFailure,
  at = new Date(),
): Promise<DeliveryStatus> {
  const delay = Math.max(retryDelayMs(row.attempts), failure.retryAfterMs ?? 0)
  const next = new Date(at.getTime() + delay)
  const dead = failure.permanent === true || next.toISOString() > row.giveUpAt
  const status: DeliveryStatus = dead ? 'dead' : 'pending'
  await db
    .updateTable('leadDelivery')
    .set({
      status,
      nextAttemptAt: next.toISOString(),
      leaseUntil: null,
      lastError: failure.message.slice(0, MAX_ERROR_LENGTH),
    })
    .where('id', '=', row.id)
    .where('status', '=', 'pending')
    .where('leaseUntil', '=', row.leaseUntil)
    .execute()
  return status
}

/** The backlog an operator watches (GET /readyz): never any personal data. */
export interface OutboxStats {
  readonly pending: number
  /** Seconds the oldest pending row has waited, 0 when none */
  readonly oldestPendingSeconds: number
  readonly dead: number
}

export async function outboxStats(db: Kysely<Database>, at = new Date()): Promise<OutboxStats> {
  const rows = await db
    .selectFrom('leadDelivery')
    .select((eb) => ['status', eb.fn.countAll<number | string>().as('count'), eb.fn.min('createdAt').as('oldest')])
    .where('status', 'in', ['pending', 'dead'])
    .groupBy('status')
    .execute()
  const pending = rows.find((row) => row.status === 'pending')
  const dead = rows.find((row) => row.status === 'dead')
  const oldest = pending?.oldest ? Date.parse(pending.oldest) : at.getTime()
  return {
    pending: Number(pending?.count ?? 0),
    oldestPendingSeconds: Math.max(0, Math.round((at.getTime() - oldest) / 1000)),
    dead: Number(dead?.count ?? 0),
  }
}

/** A delivery as the operator sees it: no personal data beyond the lead's number. */
type DeliveryListItem = Pick<
  LeadDeliveryRow,
  'id' | 'feedbackId' | 'channel' | 'status' | 'attempts' | 'nextAttemptAt' | 'lastError' | 'createdAt'
>

export async function listDeliveries(
  db: Kysely<Database>,
  statuses: readonly DeliveryStatus[] = ['pending', 'dead'],
  limit = 500,
  /** Keyset paging: the deliveries after this id */
  after = 0,
): Promise<{ items: DeliveryListItem[]; more: boolean }> {
  const rows = await db
    .selectFrom('leadDelivery')
    .select(['id', 'feedbackId', 'channel', 'status', 'attempts', 'nextAttemptAt', 'lastError', 'createdAt'])
    .where('status', 'in', [...statuses])
    .where('id', '>', after)
    .orderBy('id')
    .limit(limit + 1)
    .execute()
  return { items: rows.slice(0, limit), more: rows.length > limit }
}

/** Every delivery of these leads, oldest first, as the owner's inbox shows them. */
export async function deliveriesOf(db: Pick<Kysely<Database>, 'selectFrom'>, feedbackIds: readonly number[]) {
  return db
    .selectFrom('leadDelivery')
    .select(['id', 'feedbackId', 'channel', 'status', 'attempts', 'nextAttemptAt', 'sentAt', 'lastError'])
    .where('feedbackId', 'in', [...feedbackIds])
    .orderBy('id')
    .execute()
}

/** A delivery back in the queue: due at `at` and retried for another day, claimable by anyone. */
function dueAgain(at: Date) {
  return {
    status: 'pending',
    nextAttemptAt: at.toISOString(),
    giveUpAt: new Date(at.getTime() + GIVE_UP_AFTER_MS).toISOString(),
    leaseUntil: null,
  } as const
}

/**
 * Puts deliveries back in the queue, due now and retried for another day: the given ids (pending
 * or dead; a sent one stays sent, one being sent is left alone), or every dead one. Returns the ids queued.
 */
export async function retryDeliveries(
  db: Kysely<Database>,
  which: { readonly ids: readonly number[] } | 'dead',
  at = new Date(),
): Promise<number[]> {
  if (which !== 'dead' && which.ids.length === 0) return []
  const now = at.toISOString()
  const rows = await db
    .updateTable('leadDelivery')
    .set(dueAgain(at))
    .where((eb) => (which === 'dead' ? eb('status', '=', 'dead') : eb('id', 'in', [...which.ids])))
    .where('status', '!=', 'sent')
    // A row being sent right now is left to its sender.
    .where((eb) => eb.or([eb('leaseUntil', 'is', null), eb('leaseUntil', '<=', now)]))
    .returning('id')
    .execute()
  return rows.map((row) => row.id).sort((a, b) => a - b)
}

/**
 * «Отправить ещё раз» for one lead: each of its deliveries, sent ones too, due now and retried
 * for another day; one being sent right now is left to its sender. Returns the lead's channels.
 */
export async function requeueLeadDeliveries(
  db: Kysely<Database>,
  feedbackId: number,
  at = new Date(),
): Promise<DeliveryChannel[]> {
  const now = at.toISOString()
  await db
    .updateTable('leadDelivery')
    .set({ ...dueAgain(at), sentAt: null })
    .where('feedbackId', '=', feedbackId)
    .where((eb) => eb.or([eb('leaseUntil', 'is', null), eb('leaseUntil', '<=', now)]))
    .execute()
  const rows = await db.selectFrom('leadDelivery').select('channel').where('feedbackId', '=', feedbackId).execute()
  return rows.map((row) => row.channel)
}

/**
 * Deletes the delivery rows of these leads (retention, a person's request: their last errors may
 * quote what was sent) and returns how many it deleted.
 */
export async function deleteLeadDeliveries(db: Kysely<Database>, feedbackIds: readonly number[]): Promise<number> {
  if (feedbackIds.length === 0) return 0
  const deleted = await db.deleteFrom('leadDelivery').where('feedbackId', 'in', feedbackIds).executeTakeFirst()
  return Number(deleted.numDeletedRows)
}

/** Every delivery row of these leads as stored, for a person's export. */
export async function deliveryRowsOf(db: Kysely<Database>, feedbackIds: readonly number[]) {
  if (feedbackIds.length === 0) return []
  return db
    .selectFrom('leadDelivery')
    .select(['id', 'feedbackId', 'channel', 'status', 'attempts', 'sentAt', 'lastError', 'createdAt'])
    .where('feedbackId', 'in', feedbackIds)
    .orderBy('id')
    .execute()
}
