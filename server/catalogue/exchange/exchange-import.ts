// `mode=import`: one file of the exchange taken into the catalogue in bounded steps
// (docs/decisions/032-1c-exchange.md). Each call works until its time budget is spent and answers
// `progress` for 1C to call again, `success` when the file is done, or `failure` with a Russian
// reason. Every step is one short write through the door that also records where the import is, so
// a step is committed whole or not at all, and a call repeated after a lost answer goes on from
// there. Images are stored before the step that names them (by content: storing twice is harmless).
// An item the database refuses is skipped and named in the run's log, the items after it written
// (exchange-item-errors.ts); what 1C sent that the site refused fails the run once its files are in.
import { HttpError } from '../../http/http-error'
import { isSqlite } from '../../data/dialect'
import { IMPORT_CLAIM, letOthersWrite, Pacer, type ImportClaim } from '../import-claim'
import { ANALYZE_AFTER } from '../write-door'
import type { ContentWrite } from '../../content/content-write'
import { CmlError } from './commerceml'
import { unpackArchives } from './exchange-archives'
import { checkedName, dropFiles, listFiles } from './exchange-files'
import type { ExchangeSession } from './exchange-sessions'
import { stageFile, stagedItems } from './exchange-staging'
import { readSettings, rememberPriceTypes } from './exchange-settings'
import {
  isCatalogueFile,
  offerInputs,
  priceTypeId,
  productOffers,
  unknownOffers,
  productInputs,
  storeImages,
  type ImportAnswer,
  type ImportContext,
  type ImportState,
  type ProductOffers,
  type RunReport,
  type Skipped,
} from './exchange-inputs'
import { applyOffers } from './exchange-offers'
import { itemName } from './commerceml-checks'
import { isItemError, writeEachOnError } from './exchange-item-errors'
import { emptyTally, type Tally } from './exchange-records'
import { upsertGroups } from './exchange-groups'
import { upsertProducts } from './exchange-products'
import { withdrawUnseen } from './exchange-withdrawal'
import { addToRun, finishRun, runOf } from './exchange-runs'
import { catalogueRoot, claimCatalogue, newState, saveState } from './exchange-import-state'

/** Items per step at most: a step of unchanged items is cheap, and the pacer keeps it within the budget */
const MAX_STEP = IMPORT_CLAIM.maxChunk
const WITHDRAW_BATCH = 200

/** One call of `mode=import&filename=…`. */
export async function importStep(
  ctx: ImportContext,
  session: ExchangeSession,
  filename: string,
): Promise<ImportAnswer> {
  const deadline = Date.now() + ctx.budgetMs
  /** Each call takes at least one step, however long reading the file took: it always moves on. */
  let steps = 0
  const inTime = () => steps++ === 0 || Date.now() < deadline
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
    const progress = (state.files[name] ??= { step: 'start', pos: 0 })
    if (progress.step === 'done') return { status: 'success', message: `Файл ${name} загружен` }
    const settings = await readSettings(ctx.db)
    const run = runId
    claim = await claimCatalogue(ctx.db, deadline)
    if (!claim) return { status: 'progress', message: 'Ждём окончания другого импорта на сайте' }
    const held = claim
    const sqlite = isSqlite(ctx.db)
    // How long one step's transaction should take: other processes' writes (leads) wait at most that long.
    const target = sqlite ? IMPORT_CLAIM.budgetMs.sqlite : IMPORT_CLAIM.budgetMs.postgres

    /** What the next step puts in the run's log (skipped pictures, items 1C sent that were refused) */
    const notes: Skipped[] = []

    /**
     * One step: `work` and the import's state after it, in one short transaction; then other
     * processes' writes (leads) and visitors go first. Returns the transaction's milliseconds (what
     * the pacer sizes steps by; the pause after it is not the step's). A step that fails leaves
     * where the import is as it was.
     */
    const step = async (
      work: (unit: ContentWrite, tally: Tally, skipped: Skipped[]) => Promise<void>,
      variants?: RunReport['variants'],
    ) => {
      const tally = emptyTally()
      const skipped: Skipped[] = [...notes]
      const start = performance.now()
      const at = { ...progress }
      try {
        await ctx.door.write(async (unit) => {
          await held.renew(unit.trx)
          await work(unit, tally, skipped)
          await saveState(unit.trx, session.id, state)
          await addToRun(unit.trx, run, { tally, skipped, variants, file: name })
        })
      } catch (error) {
        Object.assign(progress, at)
        throw error
      }
      notes.length = 0
      const ms = performance.now() - start
      await letOthersWrite(ctx.db, ms)
      return ms
    }
    /** An item the database refused alone: skipped, named, and passed. */
    const skipOne = (what: string, why: string) =>
      step(async (_unit, _tally, skipped) => {
        skipped.push({ what, why, refused: true })
        progress.pos += 1
      })

    /** PostgreSQL's planner statistics, refreshed every ANALYZE_AFTER items (issue 36): search stays on its indexes. */
    const statistics = async (before: number) => {
      if (!sqlite && Math.floor(before / ANALYZE_AFTER) !== Math.floor(progress.pos / ANALYZE_AFTER)) {
        await ctx.door.refreshStatistics()
      }
    }

    if (progress.step === 'start') {
      // The file parsed once, into staged items every later step reads by position (exchange-staging.ts).
      const result = await stageFile(ctx.db, session.id, name)
      if (result === null) throw new CmlError(`Файл ${name} не получен: 1С не передала его в этом обмене`)
      const { staged, extras } = result
      for (const p of extras.properties) {
        state.properties[p.id] = { name: p.name, values: Object.fromEntries(p.values) }
      }
      for (const t of extras.priceTypes) state.priceTypes[t.id] = t.name
      if (staged.kind === 'catalogue' && !staged.onlyChanges) state.fullSync = true
      Object.assign(state.groupAlias, extras.groupAlias)
      notes.push(...extras.refused.map((r) => ({ ...r, refused: true as const })))
      progress.staged = staged
      progress.step = staged.kind === 'offers' ? 'offers' : staged.kind === 'catalogue' ? 'groups' : 'done'
      await saveState(ctx.db, session.id, state)
    }
    const counts = progress.staged?.counts ?? { group: 0, product: 0, offer: 0 }

    if (progress.step === 'groups') {
      // Parents come before their children in the file's order, so each step finds its parents made.
      const root = await catalogueRoot(ctx)
      const pacer = new Pacer(10, 2, 100, target)
      while (progress.pos < counts.group && inTime()) {
        const batch = await stagedItems(ctx.db, session.id, name, 'group', progress.pos, pacer.size)
        const group = (g: (typeof batch)[number]) => itemName('Группа', g.id, g.name)
        await pacer.time(batch.length, () =>
          writeEachOnError(
            batch,
            (part) =>
              step(async (unit, tally) => {
                await upsertGroups(unit, part, root, run, tally)
                progress.pos += part.length
              }),
            (g, why) => skipOne(group(g), why),
            group,
            ctx.log,
          ),
        )
      }
      if (progress.pos >= counts.group) {
        progress.step = 'products'
        progress.pos = 0
        await saveState(ctx.db, session.id, state)
      }
    }

    if (progress.step === 'products') {
      const root = await catalogueRoot(ctx)
      const pacer = new Pacer(10, 2, MAX_STEP, target)
      while (progress.pos < counts.product && inTime()) {
        const batch = await stagedItems(ctx.db, session.id, name, 'product', progress.pos, pacer.size)
        const images = await storeImages(ctx, session.id, batch, notes)
        const inputs = productInputs(batch, state, images)
        const before = progress.pos
        const product = (p: (typeof inputs)[number]) => itemName('Товар', p.id, p.title)
        await pacer.time(batch.length, () =>
          writeEachOnError(
            inputs,
            (part) =>
              step(async (unit, tally, skipped) => {
                await upsertProducts(unit, part, root, run, tally, skipped)
                progress.pos += part.length
              }),
            (p, why) => skipOne(product(p), why),
            product,
            ctx.log,
          ),
        )
        await statistics(before)
      }
      if (progress.pos >= counts.product) {
        const files = await listFiles(ctx.db, session.id)
        const moreCatalogue = files.some(
          (f) => f.name !== name && isCatalogueFile(f.name) && state.files[f.name]?.step !== 'done',
        )
        progress.step = state.fullSync && !moreCatalogue ? 'withdraw' : 'done'
        progress.pos = 0
        await saveState(ctx.db, session.id, state)
      }
    }

    if (progress.step === 'withdraw') {
      // The products first (pos 0), then the groups (pos 1).
      while (progress.step === 'withdraw' && inTime()) {
        const kind = progress.pos === 0 ? 'product' : 'group'
        await step(async (unit, tally) => {
          if ((await withdrawUnseen(unit, kind, run, WITHDRAW_BATCH, tally)) < WITHDRAW_BATCH) {
            if (kind === 'product') progress.pos = 1
            else progress.step = 'done'
          }
        })
      }
    }

    if (progress.step === 'offers') {
      if (progress.pos === 0 && Object.keys(state.priceTypes).length > 0)
        await rememberPriceTypes(ctx.db, state.priceTypes)
      const priceType = priceTypeId(settings.priceType, state.priceTypes)
      if (settings.priceType && priceType === null) {
        throw new CmlError(`Тип цен «${settings.priceType}» не найден в файлах 1С: выберите тип цен в админке`)
      }
      const oldPriceType = settings.oldPriceType ? priceTypeId(settings.oldPriceType, state.priceTypes) : null
      const pacer = new Pacer(50, 5, MAX_STEP, target)
      const offer = (o: ProductOffers) => itemName('Предложение', o.productId, o.name)
      while (progress.pos < counts.offer && inTime()) {
        // Each staged item is one product's offers (its characteristics'), taken as one input or
        // refused whole (a price or stock the site does not take): a position per product either way.
        const batch = productOffers(
          await stagedItems(ctx.db, session.id, name, 'offer', progress.pos, pacer.size),
          (offers, variants, variantOffers, refused) =>
            offerInputs(offers, settings, priceType, oldPriceType, variants, variantOffers, refused)[0],
        )
        const before = progress.pos
        await pacer.time(batch.length, () =>
          writeEachOnError(
            batch,
            (part) =>
              step(
                async (unit, tally, skipped) => {
                  tally.variants += part.reduce((sum, p) => sum + p.variants, 0)
                  skipped.push(...part.flatMap((p) => p.refused))
                  const inputs = part.flatMap((p) => (p.input ? [p.input] : []))
                  const unknown = await applyOffers(unit, inputs, tally, progress.staged?.onlyChanges === false)
                  skipped.push(...unknownOffers(part, unknown))
                  progress.pos += part.length
                },
                part.flatMap((p) => p.variantOffers),
              ),
            (o, why) => skipOne(offer(o), why),
            offer,
            ctx.log,
          ),
        )
        await statistics(before)
      }
      if (progress.pos >= counts.offer) {
        progress.step = 'done'
        await saveState(ctx.db, session.id, state)
      }
    }

    // What is still to be logged (a file of nothing but refused items) goes in a step of its own.
    if (notes.length > 0) await step(async () => {})
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
    await claim?.release()
  }
}
