// How an import writes the catalogue without stalling the site (issue #35,
// docs/decisions/029-price-list-and-feeds.md, "Imports in short transactions"): the price list,
// the content import and the 1C exchange all
//   1. validate everything first (the preview), writing nothing;
//   2. claim the catalogue (`claimImport`): one row of `importClaim`, taken atomically together with
//      the check that the content version is still the one previewed — so of two applies of
//      previews made at the same version exactly one goes ahead and the others get 409;
//   3. write in short transactions (`writeInChunks`): each a `door.write` of as many items as fit in
//      a small time budget, renewing the claim inside it, with the event loop let go between them
//      and, on SQLite, the write lock left free about as long as the chunk held it — other
//      processes' writes (leads) get the lock between two chunks;
//   4. release the claim.
// A crash midway leaves the chunks written so far (each is whole) and a claim that expires after
// its lease; the importers' chunks are idempotent (by артикул, by URL), so running the same file
// again finishes the job.
import { randomUUID } from 'node:crypto'
import { performance } from 'node:perf_hooks'
import type { Transaction } from 'kysely'
import { checkpointed, readContentVersion, type Db } from '../data/db'
import { writeTransaction } from '../data/write-transaction'
import { isSqlite } from '../data/sql/dialect'
import type { Database } from '../data/schema'
import type { ContentWrite } from '../content/content-write'
import { HttpError } from '../http/http-error'
import { ANALYZE_AFTER, type WriteDoor, type WriteOptions } from './write-door'

export const IMPORT_CLAIM = Object.freeze({
  /** A claim not renewed for this long is free again (a process died midway) */
  leaseMs: 60_000,
  /**
   * What one chunk may take. SQLite holds its one write lock for the whole transaction, and other
   * processes' leads wait for it: well under the 50 ms the site allows. PostgreSQL locks only the
   * rows written (and the content version's row, which other content writes wait for), and each
   * statement is a round trip: larger chunks.
   */
  budgetMs: { sqlite: 35, postgres: 150 },
  /** SQLite: the write lock left free between two chunks, half as long as the last one held it */
  pauseMs: { min: 10, max: 30 },
  firstChunk: 25,
  minChunk: 1,
  maxChunk: 1000,
})

/**
 * The write options of a 1C import's chunks: committed without waiting for the disk, made durable
 * by the durable write each call ends with before it answers (write-transaction.ts, TransactionOptions). A power
 * cut takes back at most the steps of the call 1C had no answer to, and 1C repeats that call.
 */
export const UNTIL_THE_ANSWER = Object.freeze({ durable: false })

export type ImportKind = 'price-list' | 'content-import' | '1c'

const WHAT: Record<ImportKind, string> = {
  'price-list': 'прайс-листа',
  'content-import': 'контента',
  '1c': 'из 1С',
}

function busy(what: string): HttpError {
  const name = WHAT[what as ImportKind] ?? 'каталога'
  return new HttpError(
    409,
    `Сейчас идёт другой импорт (${name}): дождитесь его окончания, затем проверьте предпросмотр заново`,
    'import_running',
  )
}

export const STALE_PREVIEW =
  'Каталог или файл изменились после предпросмотра: загрузите файл и проверьте предпросмотр ещё раз'

/** The claim an import holds while it writes; renewed by each chunk, released at the end. */
export class ImportClaim {
  constructor(
    private readonly db: Db,
    readonly holder: string,
    readonly what: ImportKind,
  ) {}

  /** Inside a chunk's transaction: the claim is still this import's, for another lease; 409 if lost. */
  async renew(trx: Transaction<Database>): Promise<void> {
    const result = await trx
      .updateTable('importClaim')
      .set({ leaseUntil: leaseUntil() })
      .where('kind', '=', 'catalogue')
      .where('holder', '=', this.holder)
      .executeTakeFirst()
    if (Number(result.numUpdatedRows) === 0) {
      throw new HttpError(
        409,
        'Импорт прерван: его очередь истекла. Загрузите файл ещё раз — уже записанное останется, остальное допишется',
        'import_lost',
      )
    }
  }

  async release(): Promise<void> {
    await this.db.deleteFrom('importClaim').where('kind', '=', 'catalogue').where('holder', '=', this.holder).execute()
  }
}

function leaseUntil(): string {
  return new Date(Date.now() + IMPORT_CLAIM.leaseMs).toISOString()
}

/**
 * Claims the catalogue for an import. With `expectedVersion` the claim is taken only while the
 * content version is still that one (the preview's): 409 when it changed or another import holds
 * the claim. The caller releases it (try/finally).
 */
export async function claimImport(
  db: Db,
  what: ImportKind,
  expectedVersion?: number,
  staleMessage = STALE_PREVIEW,
): Promise<ImportClaim> {
  const holder = randomUUID()
  const now = new Date().toISOString()
  await writeTransaction(db, async (trx) => {
    // One statement: a new row, or the row of a claim whose lease ran out. PostgreSQL makes a
    // concurrent claimer wait for this transaction and then re-check the lease; SQLite's
    // transaction holds the write lock.
    const taken = await trx
      .insertInto('importClaim')
      .values({ kind: 'catalogue', holder, what, leaseUntil: leaseUntil() })
      .onConflict((oc) =>
        oc
          .column('kind')
          .doUpdateSet({ holder, what, leaseUntil: leaseUntil() })
          .where('importClaim.leaseUntil', '<', now),
      )
      .returning('holder')
      .executeTakeFirst()
    if (taken?.holder !== holder) {
      const current = await trx
        .selectFrom('importClaim')
        .select('what')
        .where('kind', '=', 'catalogue')
        .executeTakeFirst()
      throw busy(current?.what ?? '')
    }
    if (expectedVersion !== undefined && (await readContentVersion(trx)) !== expectedVersion) {
      throw new HttpError(409, staleMessage, 'stale_preview')
    }
  })
  return new ImportClaim(db, holder, what)
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

/**
 * After a write transaction that held the lock `heldMs`, before the next one. SQLite: other
 * processes waiting for the write lock poll it with growing sleeps (its busy handler: 1, 2, 5, 10,
 * 15, 20, 25 … 100 ms); a lock let go for a microsecond is missed and a lead would wait seconds, so
 * the lock stays free half as long as the transaction held it (within pauseMs) and a waiter's next
 * tries find it free. Meanwhile SQLite checkpoints what the transaction wrote, on a thread of its
 * own, and the next transaction waits for that too (db.ts, checkpointed). PostgreSQL: every other
 * request and timer runs first.
 */
export async function letOthersWrite(db: Db, heldMs: number): Promise<void> {
  const { min, max } = IMPORT_CLAIM.pauseMs
  if (isSqlite(db)) await Promise.all([pause(Math.min(max, Math.max(min, heldMs / 2))), checkpointed(db)])
  else await yieldToOthers()
}

/** Lets every other request and timer run before the next chunk. */
export function yieldToOthers(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve))
}

/**
 * A pace of yields for work that runs on without waiting for anything outside the process (an
 * archive's small entries inflating, a file parsed): the function returned lets every other request
 * and timer run once `everyMs` have passed since it last did, and returns at once before.
 */
export function yieldingEvery(everyMs: number): () => Promise<void> {
  let last = performance.now()
  return async () => {
    if (performance.now() - last < everyMs) return
    await yieldToOthers()
    last = performance.now()
  }
}

/** What one of an import's transactions should take on this database (IMPORT_CLAIM.budgetMs). */
export function importBudgetMs(db: Db): number {
  return isSqlite(db) ? IMPORT_CLAIM.budgetMs.sqlite : IMPORT_CLAIM.budgetMs.postgres
}

/** The number of items per transaction that makes one take about `targetMs`, learnt from the last. */
export class Pacer {
  constructor(
    public size: number,
    private readonly min: number,
    private readonly max: number,
    private readonly targetMs: number,
  ) {}

  /** A transaction of `items` took `ms`: the next one's size from its pace, growing at most fourfold. */
  next(items: number, ms: number): void {
    const fit = Math.floor((items * this.targetMs) / Math.max(ms, 0.5))
    this.size = Math.max(this.min, Math.min(this.max, fit, items * 4))
  }

  /** Runs a transaction of `items` (`run` returns its milliseconds) and learns from it. */
  async time(items: number, run: () => Promise<number>): Promise<void> {
    this.next(items, await run())
  }
}

export interface ChunkStats {
  /** Transactions written */
  chunks: number
  /** The longest of them, in ms (the write lock on SQLite, from BEGIN IMMEDIATE to COMMIT) */
  longestMs: number
}

/**
 * Writes `items` through the door in short transactions: each chunk renews the claim and runs
 * `write` on as many items as the last chunk's time says fit in the budget, then lets go of the
 * event loop. Returns what the chunks returned, in order. A chunk that fails rolls back whole; the
 * chunks before it stay (see the file's head).
 */
export async function writeInChunks<T, R>(
  door: WriteDoor,
  claim: ImportClaim,
  items: readonly T[],
  write: (unit: ContentWrite, items: readonly T[]) => Promise<readonly R[]>,
  options: WriteOptions & { stats?: ChunkStats } = {},
): Promise<R[]> {
  const budget = importBudgetMs(door.db)
  const out: R[] = []
  const pacer = new Pacer(IMPORT_CLAIM.firstChunk, IMPORT_CLAIM.minChunk, IMPORT_CLAIM.maxChunk, budget)
  let sinceStatistics = 0
  for (let at = 0; at < items.length;) {
    const part = items.slice(at, at + pacer.size)
    const started = performance.now()
    const written = await door.write(async (unit) => {
      await claim.renew(unit.trx)
      return write(unit, part)
    }, options)
    const took = performance.now() - started
    if (options.stats) {
      options.stats.chunks++
      options.stats.longestMs = Math.max(options.stats.longestMs, took)
    }
    out.push(...written)
    at += part.length
    pacer.next(part.length, took)
    // PostgreSQL's planner learns of the rows as they come (a single large write does it after).
    sinceStatistics += part.length
    if (sinceStatistics >= ANALYZE_AFTER || (at >= items.length && items.length >= ANALYZE_AFTER)) {
      sinceStatistics = 0
      await door.refreshStatistics()
    }
    await letOthersWrite(door.db, took)
  }
  return out
}
