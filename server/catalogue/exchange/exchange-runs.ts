// The 1C exchange's runs: one per session that imports, the back office's log and /readyz's last
// exchange (docs/decisions/032-1c-exchange.md). Its report (files, counts, skipped rows) grows inside
// each step's transaction, so it always says what is written.
import type { Transaction } from 'kysely'
import type { Db } from '../../data/db'
import type { Database } from '../../data/schema'
import type { ExchangeSession } from './exchange-sessions'
import type { ImportContext, RunReport } from './exchange-inputs'
import { emptyTally, type Tally } from './exchange-records'

type Trx = Transaction<Database>

/** Skipped rows a run keeps to show (the count goes on) */
const SKIPPED_KEPT = 100
/** Refused items a run keeps to name in its failure */
const REFUSED_KEPT = 3

export async function addToRun(
  trx: Trx,
  runId: number,
  change: { tally?: Tally; skipped?: RunReport['skipped']; variants?: RunReport['variants']; file?: string },
): Promise<void> {
  const row = await trx.selectFrom('exchangeRun').select('report').where('id', '=', runId).executeTakeFirstOrThrow()
  const report = JSON.parse(row.report) as RunReport
  if (change.tally)
    for (const key of Object.keys(change.tally) as (keyof Tally)[]) {
      report.tally[key] = (report.tally[key] ?? 0) + change.tally[key]
    }
  if (change.skipped) {
    const shown = change.skipped.map(({ what, why }) => ({ what, why }))
    report.skippedCount += change.skipped.length
    report.skipped.push(...shown.slice(0, Math.max(0, SKIPPED_KEPT - report.skipped.length)))
    const refused = shown.filter((_, i) => change.skipped![i].refused)
    if (refused.length > 0) {
      report.refusedCount = (report.refusedCount ?? 0) + refused.length
      const kept = (report.refused ??= [])
      kept.push(...refused.slice(0, Math.max(0, REFUSED_KEPT - kept.length)))
    }
  }
  if (change.variants && change.variants.length > 0) {
    const kept = (report.variants ??= [])
    kept.push(...change.variants.slice(0, Math.max(0, SKIPPED_KEPT - kept.length)))
  }
  if (change.file && !report.files.includes(change.file)) report.files.push(change.file)
  await trx
    .updateTable('exchangeRun')
    .set({ report: JSON.stringify(report) })
    .where('id', '=', runId)
    .execute()
}

/** The run this session's import belongs to, made on its first import call. */
export async function runOf(ctx: ImportContext, session: ExchangeSession): Promise<number> {
  if (session.runId !== null) return session.runId
  const report: RunReport = { files: [], tally: emptyTally(), skipped: [], skippedCount: 0 }
  const row = await ctx.db
    .insertInto('exchangeRun')
    .values({
      startedAt: ctx.now().toISOString(),
      finishedAt: null,
      status: 'running',
      report: JSON.stringify(report),
      message: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  const runId = Number(row.id)
  await ctx.db.updateTable('exchangeSession').set({ runId }).where('id', '=', session.id).execute()
  return runId
}

export async function finishRun(
  db: Db,
  runId: number,
  status: 'success' | 'failure',
  at: Date,
  message: string | null,
) {
  await db
    .updateTable('exchangeRun')
    .set({ status, finishedAt: at.toISOString(), message: message?.slice(0, 2000) ?? null })
    .where('id', '=', runId)
    .where('status', '=', 'running')
    .execute()
}

/**
 * The run's end once 1C's files are in: failed, naming what was refused, when 1C sent an item the
 * site did not take (so a run with a skipped duplicate or a bad price never reads «success»), else
 * success. Returns the failure's message, or null.
 */
export async function endRun(db: Db, runId: number, at: Date): Promise<string | null> {
  const row = await db.selectFrom('exchangeRun').select('report').where('id', '=', runId).executeTakeFirst()
  if (!row) return null
  const report = JSON.parse(row.report) as RunReport
  const count = report.refusedCount ?? 0
  if (count === 0) {
    await finishRun(db, runId, 'success', at, null)
    return null
  }
  const named = (report.refused ?? []).map((r) => `${r.what}: ${r.why}`).join('; ')
  const more = count > (report.refused?.length ?? 0) ? '; …' : ''
  const message =
    `Загружено не всё, пропущено с ошибками: ${count} (${named}${more}). ` +
    'Остальное загружено, подробности в журнале обмена на сайте'
  await finishRun(db, runId, 'failure', at, message)
  return message
}

/**
 * A file of order changes 1C sent back (`type=sale&mode=file`), logged as a run of its own: how many
 * leads took 1C's status, and the orders skipped with why.
 */
export async function logOrderChanges(
  db: Db,
  at: Date,
  file: string,
  updated: number,
  skipped: RunReport['skipped'],
): Promise<void> {
  const report: RunReport = {
    files: [file],
    tally: { ...emptyTally(), ordersUpdated: updated },
    skipped: skipped.slice(0, SKIPPED_KEPT),
    skippedCount: skipped.length,
  }
  await db
    .insertInto('exchangeRun')
    .values({
      startedAt: at.toISOString(),
      finishedAt: at.toISOString(),
      status: 'success',
      report: JSON.stringify(report),
      message: null,
    })
    .execute()
}
