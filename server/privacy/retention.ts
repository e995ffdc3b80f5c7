// The retention job (docs/decisions/027-personal-data.md): once a day, leads older than
// LEAD_RETENTION_DAYS are anonymised and their delivery rows deleted (server/leads/store/
// lead-privacy.ts). Every process checks now and then; the one that takes the job's lease (one
// conditional update of the privacyJob row, as the outbox claims a delivery) runs it, records what
// it did and when the next run is due, and writes the audit log. Dead letters of the lead journal
// are files of each host: every process prunes its own host's past the same cutoff.
import { randomUUID } from 'node:crypto'
import type { Db } from '../data/db'
import { anonymiseLeadsBefore } from '../leads/store/lead-privacy'
import { audit } from './audit'

const JOB = 'retention'
const DAY_MS = 24 * 3600 * 1000
/** A run that takes longer than this is assumed dead and another process may take over. */
const LEASE_MS = 15 * 60 * 1000

export interface RetentionResult {
  readonly cutoff: string
  readonly leads: number
  readonly deliveries: number
}

export interface RetentionStatus {
  /** LEAD_RETENTION_DAYS; 0 keeps leads for ever */
  readonly days: number
  readonly nextRunAt: string | null
  readonly lastRunAt: string | null
  readonly lastResult: RetentionResult | null
}

export function createRetention(db: Db, options: { days: number; now: () => Date }) {
  const holder = randomUUID()

  async function status(): Promise<RetentionStatus> {
    const row = await db.selectFrom('privacyJob').selectAll().where('name', '=', JOB).executeTakeFirst()
    let lastResult: RetentionResult | null = null
    try {
      lastResult = row?.lastResult ? (JSON.parse(row.lastResult) as RetentionResult) : null
    } catch {
      /* shown as none */
    }
    return {
      days: options.days,
      nextRunAt: options.days > 0 ? (row?.nextRunAt ?? options.now().toISOString()) : null,
      lastRunAt: row?.lastRunAt ?? null,
      lastResult,
    }
  }

  /** The cutoff of a run at `at`: leads created before it are past the period. */
  function cutoffAt(at: Date): string {
    return new Date(at.getTime() - options.days * DAY_MS).toISOString()
  }

  /**
   * Runs the job when it is due and no other process holds it; returns what it did, or null when
   * it was not this process's turn. A first check creates the row with the run due at once.
   */
  async function runIfDue(): Promise<RetentionResult | null> {
    if (options.days <= 0) return null
    const at = options.now()
    const nowIso = at.toISOString()
    await db
      .insertInto('privacyJob')
      .values({ name: JOB, nextRunAt: nowIso })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute()
    const taken = await db
      .updateTable('privacyJob')
      .set({ holder, leaseUntil: new Date(at.getTime() + LEASE_MS).toISOString() })
      .where('name', '=', JOB)
      .where('nextRunAt', '<=', nowIso)
      .where((eb) => eb.or([eb('leaseUntil', 'is', null), eb('leaseUntil', '<=', nowIso)]))
      .executeTakeFirst()
    if (Number(taken.numUpdatedRows) !== 1) return null
    try {
      const cutoff = cutoffAt(at)
      const done = await anonymiseLeadsBefore(db, cutoff, nowIso)
      const result: RetentionResult = { cutoff, ...done }
      await db
        .updateTable('privacyJob')
        .set({
          holder: null,
          leaseUntil: null,
          lastRunAt: nowIso,
          lastResult: JSON.stringify(result),
          nextRunAt: new Date(at.getTime() + DAY_MS).toISOString(),
        })
        .where('name', '=', JOB)
        .where('holder', '=', holder)
        .execute()
      await audit(db, { at, actor: 'retention', action: 'retention.run', detail: { days: options.days, ...result } })
      return result
    } catch (error) {
      // Let another attempt (this process's or another's) try again at its next check.
      await db
        .updateTable('privacyJob')
        .set({ holder: null, leaseUntil: null })
        .where('name', '=', JOB)
        .where('holder', '=', holder)
        .execute()
        .catch(() => {})
      throw error
    }
  }

  return { status, runIfDue, cutoffAt, holder }
}

export type Retention = ReturnType<typeof createRetention>
