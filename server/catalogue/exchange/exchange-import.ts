// `mode=import`: one file of the exchange taken into the catalogue in bounded steps
// (docs/decisions/032-1c-exchange.md). Each call works until its time budget is spent and answers
// `progress` for 1C to call again, `success` when the file is done, or `failure` with a Russian
// reason. Every step is one short write through the door that also records where the import is, so
// a step is committed whole or not at all, and a call repeated after a lost answer goes on from
// there. Images are stored before the step that names them (by content: storing twice is harmless).
// An item the database refuses is skipped and named in the run's log, the items after it written
// (exchange-item-errors.ts); what 1C sent that the site refused fails the run once its files are in.
import { HttpError } from '../../http/http-error'
import type { ImportClaim } from '../import-claim'
import { CmlError } from './commerceml'
import { unpackArchives } from './exchange-archives'
import { checkedName, dropFiles } from './exchange-files'
import type { ExchangeSession } from './exchange-sessions'
import { readSettings } from './exchange-settings'
import type { ImportAnswer, ImportContext, ImportState } from './exchange-inputs'
import { isItemError } from './exchange-item-errors'
import { finishRun, runOf } from './exchange-runs'
import { claimCatalogue, newState, saveState } from './exchange-import-state'
import {
  importGroups,
  importOffers,
  importProducts,
  importRound,
  stageImport,
  withdrawUnnamed,
} from './exchange-import-steps'

/** One call of `mode=import&filename=…`. */
export async function importStep(
  ctx: ImportContext,
  session: ExchangeSession,
  filename: string,
): Promise<ImportAnswer> {
  const deadline = Date.now() + ctx.budgetMs
  const state: ImportState = session.state
    ? { ...newState(), ...(JSON.parse(session.state) as ImportState) }
    : newState()
  let runId: number | null = session.runId
  let claim: ImportClaim | null = null
  try {
    const name = checkedName(filename)
    if (!state.unpacked) {
      await unpackArchives(ctx.db, session.id)
      state.unpacked = true
      await saveState(ctx.db, session.id, state)
    }
    runId = await runOf(ctx, session)
    if (state.files[name]?.step === 'done') return { status: 'success', message: `Файл ${name} загружен` }
    const settings = await readSettings(ctx.db)
    claim = await claimCatalogue(ctx.db, deadline)
    if (!claim) return { status: 'progress', message: 'Ждём окончания другого импорта на сайте' }
    const owned = { runId, overwrite: ctx.overwrite }
    const r = importRound({ ctx, session, name, state, run: runId, owned }, claim, deadline)
    const { progress } = r

    if (progress.step === 'start') await stageImport(r)
    const counts = progress.staged?.counts ?? { group: 0, product: 0, offer: 0 }
    if (progress.step === 'groups') await importGroups(r, counts.group)
    if (progress.step === 'products') await importProducts(r, counts.product)
    if (progress.step === 'withdraw') await withdrawUnnamed(r)
    if (progress.step === 'offers') await importOffers(r, counts.offer, settings)

    // What is still to be logged (a file of nothing but refused items) goes in a step of its own.
    if (r.notes.length > 0) await r.step(async () => {})
    if (progress.step !== 'done') {
      const total = progress.step === 'offers' ? counts.offer : counts.product
      return { status: 'progress', message: `Файл ${name}: обработано ${Math.min(progress.pos, total)} из ${total}` }
    }
    return { status: 'success', message: `Файл ${name} загружен` }
  } catch (error) {
    if (!(error instanceof CmlError) && !(error instanceof HttpError)) {
      // Not the file's fault, nor an item's (those are skipped): the run says so, and never ends «success».
      if (runId !== null && isItemError(error)) {
        await finishRun(
          ctx.db,
          runId,
          'failure',
          ctx.now(),
          `Ошибка сайта при загрузке файла ${filename}: обмен не выполнен`,
        )
      }
      throw error
    }
    if (runId !== null) await finishRun(ctx.db, runId, 'failure', ctx.now(), error.message)
    // 1C ends an exchange that failed: its files go now rather than when the session expires.
    await dropFiles(ctx.db, session.id)
    return { status: 'failure', message: error.message }
  } finally {
    // A durable write (write-transaction.ts): with it the steps above, committed without waiting
    // for the disk (UNTIL_THE_ANSWER), are on it before 1C hears the answer.
    await claim?.release()
  }
}
