// The steps of one `mode=import` call (exchange-import.ts, docs/decisions/032-1c-exchange.md): the
// call's round (its file, state and budget, and the one way a step is written) and the file's
// phases in their order: staging, groups, products, withdrawing what a full catalogue no longer
// names, and offers. Each phase goes on from the file's position and stops when the call's time is
// spent; the next call takes it up where the state says.
import type { ContentWrite } from '../../content/content-write'
import { isSqlite } from '../../data/sql/dialect'
import {
  IMPORT_CLAIM,
  importBudgetMs,
  letOthersWrite,
  Pacer,
  UNTIL_THE_ANSWER,
  type ImportClaim,
} from '../import-claim'
import { statisticsDue } from '../write-door'
import { CmlError } from './commerceml'
import { itemName } from './commerceml-checks'
import { listFiles } from './exchange-files'
import { upsertGroups } from './exchange-groups'
import { catalogueRoot, saveState } from './exchange-import-state'
import {
  isCatalogueFile,
  offerInputs,
  priceTypeId,
  productInputs,
  productOffers,
  storeImages,
  unknownOffers,
  type ImportContext,
  type ImportState,
  type ProductOffers,
  type RunReport,
  type Skipped,
} from './exchange-inputs'
import { writeEachOnError } from './exchange-item-errors'
import { applyOffers } from './exchange-offers'
import type { OwnedFields } from './exchange-owned-fields'
import { upsertProducts } from './exchange-products'
import { emptyTally, type Tally } from './exchange-records'
import { addToRun } from './exchange-runs'
import type { ExchangeSession } from './exchange-sessions'
import { rememberPriceTypes, type ExchangeSettings } from './exchange-settings'
import { stagedItems, stageFile } from './exchange-staging'
import { withdrawUnseen } from './exchange-withdrawal'

/** Items per step at most: a step of unchanged items is cheap, and the pacer keeps it within the budget */
const MAX_STEP = IMPORT_CLAIM.maxChunk
const WITHDRAW_BATCH = 200

type Work = (unit: ContentWrite, tally: Tally, skipped: Skipped[]) => Promise<void>

/** One call's import of one file: what each phase reads and the steps it writes with. */
export interface ImportRound {
  readonly ctx: ImportContext
  readonly session: ExchangeSession
  readonly name: string
  readonly state: ImportState
  readonly progress: ImportState['files'][string]
  readonly run: number
  /** What 1C overwrites in others' products (decision 044) */
  readonly owned: OwnedFields
  /** How long one step's transaction should take: other processes' writes (leads) wait at most that long */
  readonly target: number
  /** Whether the call may take another step (its first always) */
  inTime(): boolean
  /** What the next step puts in the run's log (skipped pictures, items 1C sent that were refused) */
  readonly notes: Skipped[]
  /**
   * One step: `work` and the import's state after it, in one short transaction; then other
   * processes' writes (leads) and visitors go first. Returns the transaction's milliseconds (what
   * the pacer sizes steps by; the pause after it is not the step's). A step that fails leaves
   * where the import is as it was.
   */
  step(work: Work, variants?: RunReport['variants']): Promise<number>
  /** An item the database refused alone: skipped, named, and passed. */
  skipOne(what: string, why: string): Promise<number>
  /**
   * PostgreSQL's planner statistics, refreshed as the items grow (issue 36, statisticsDue): search
   * stays on its indexes. Only when this call's steps created records: an exchange that changes
   * what is there (the same catalogue again) adds nothing for the planner to learn, and ANALYZE of
   * a 110,000-product catalogue takes 1–1.4 s of the database.
   */
  statistics(before: number): Promise<void>
}

export function importRound(
  base: Pick<ImportRound, 'ctx' | 'session' | 'name' | 'state' | 'run' | 'owned'>,
  claim: ImportClaim,
  deadline: number,
): ImportRound {
  const { ctx, session, name, state, run } = base
  const progress = (state.files[name] ??= { step: 'start', pos: 0 })
  const sqlite = isSqlite(ctx.db)
  let steps = 0
  /** Records this call's steps created since the statistics were last refreshed */
  let created = 0
  const notes: Skipped[] = []
  const step = async (work: Work, variants?: RunReport['variants']) => {
    const tally = emptyTally()
    const skipped: Skipped[] = [...notes]
    const start = performance.now()
    const at = { ...progress }
    try {
      await ctx.door.write(async (unit) => {
        await claim.renew(unit.trx)
        await work(unit, tally, skipped)
        await saveState(unit.trx, session.id, state)
        await addToRun(unit.trx, run, { tally, skipped, variants, file: name })
      }, UNTIL_THE_ANSWER)
    } catch (error) {
      Object.assign(progress, at)
      throw error
    }
    notes.length = 0
    created += tally.productsCreated + tally.groupsCreated
    const ms = performance.now() - start
    await letOthersWrite(ctx.db, ms)
    return ms
  }
  return {
    ...base,
    progress,
    target: importBudgetMs(ctx.db),
    inTime: () => steps++ === 0 || Date.now() < deadline,
    notes,
    step,
    skipOne: (what, why) =>
      step(async (_unit, _tally, skipped) => {
        skipped.push({ what, why, refused: true })
        progress.pos += 1
      }),
    statistics: async (before) => {
      if (!sqlite && created > 0 && statisticsDue(before, progress.pos)) {
        created = 0
        await ctx.door.refreshStatistics()
      }
    },
  }
}

/** The file parsed once, into staged items every later step reads by position (exchange-staging.ts). */
export async function stageImport(r: ImportRound): Promise<void> {
  const result = await stageFile(r.ctx.db, r.session.id, r.name)
  if (result === null) throw new CmlError(`Файл ${r.name} не получен: 1С не передала его в этом обмене`)
  const { staged, extras } = result
  for (const p of extras.properties) {
    r.state.properties[p.id] = { name: p.name, values: Object.fromEntries(p.values) }
  }
  for (const t of extras.priceTypes) r.state.priceTypes[t.id] = t.name
  if (staged.kind === 'catalogue' && !staged.onlyChanges) r.state.fullSync = true
  Object.assign(r.state.groupAlias, extras.groupAlias)
  r.notes.push(...extras.refused.map((item) => ({ ...item, refused: true as const })))
  r.progress.staged = staged
  r.progress.step = staged.kind === 'offers' ? 'offers' : staged.kind === 'catalogue' ? 'groups' : 'done'
  await saveState(r.ctx.db, r.session.id, r.state)
}

/** The position moves to the next phase; the state says so at once. */
async function nextPhase(r: ImportRound, step: ImportRound['progress']['step']) {
  r.progress.step = step
  r.progress.pos = 0
  await saveState(r.ctx.db, r.session.id, r.state)
}

/** Groups: parents come before their children in the file's order, so each step finds its parents made. */
export async function importGroups(r: ImportRound, count: number): Promise<void> {
  const root = await catalogueRoot(r.ctx)
  const pacer = new Pacer(10, 2, 100, r.target)
  while (r.progress.pos < count && r.inTime()) {
    const batch = await stagedItems(r.ctx.db, r.session.id, r.name, 'group', r.progress.pos, pacer.size)
    const group = (g: (typeof batch)[number]) => itemName('Группа', g.id, g.name)
    await pacer.time(batch.length, () =>
      writeEachOnError(
        batch,
        (part) =>
          r.step(async (unit, tally) => {
            await upsertGroups(unit, part, root, r.run, tally)
            r.progress.pos += part.length
          }),
        (g, why) => r.skipOne(group(g), why),
        group,
        r.ctx.log,
      ),
    )
  }
  if (r.progress.pos >= count) await nextPhase(r, 'products')
}

/** Products with their pictures (stored before the step that names them); then withdrawing, after the last catalogue file of a full exchange. */
export async function importProducts(r: ImportRound, count: number): Promise<void> {
  const root = await catalogueRoot(r.ctx)
  const pacer = new Pacer(10, 2, MAX_STEP, r.target)
  while (r.progress.pos < count && r.inTime()) {
    const batch = await stagedItems(r.ctx.db, r.session.id, r.name, 'product', r.progress.pos, pacer.size)
    const images = await storeImages(r.ctx, r.session.id, batch, r.notes)
    const inputs = productInputs(batch, r.state, images)
    const before = r.progress.pos
    const product = (p: (typeof inputs)[number]) => itemName('Товар', p.id, p.title)
    await pacer.time(batch.length, () =>
      writeEachOnError(
        inputs,
        (part) =>
          r.step(async (unit, tally, skipped) => {
            await upsertProducts(unit, part, root, r.run, tally, skipped, r.owned)
            r.progress.pos += part.length
          }),
        (p, why) => r.skipOne(product(p), why),
        product,
        r.ctx.log,
      ),
    )
    await r.statistics(before)
  }
  if (r.progress.pos >= count) {
    const files = await listFiles(r.ctx.db, r.session.id)
    const moreCatalogue = files.some(
      (f) => f.name !== r.name && isCatalogueFile(f.name) && r.state.files[f.name]?.step !== 'done',
    )
    await nextPhase(r, r.state.fullSync && !moreCatalogue ? 'withdraw' : 'done')
  }
}

/** What a full catalogue no longer names is withdrawn: the products first (pos 0), then the groups (pos 1). */
export async function withdrawUnnamed(r: ImportRound): Promise<void> {
  while (r.progress.step === 'withdraw' && r.inTime()) {
    const kind = r.progress.pos === 0 ? 'product' : 'group'
    await r.step(async (unit, tally) => {
      if ((await withdrawUnseen(unit, kind, r.run, WITHDRAW_BATCH, tally)) < WITHDRAW_BATCH) {
        if (kind === 'product') r.progress.pos = 1
        else r.progress.step = 'done'
      }
    })
  }
}

/** Offers: prices and stock of the products (and their variants, with their pictures) by the price types the owner chose. */
export async function importOffers(r: ImportRound, count: number, settings: ExchangeSettings): Promise<void> {
  if (r.progress.pos === 0 && Object.keys(r.state.priceTypes).length > 0)
    await rememberPriceTypes(r.ctx.db, r.state.priceTypes)
  const priceType = priceTypeId(settings.priceType, r.state.priceTypes)
  if (settings.priceType && priceType === null) {
    throw new CmlError(`Тип цен «${settings.priceType}» не найден в файлах 1С: выберите тип цен в админке`)
  }
  const oldPriceType = settings.oldPriceType ? priceTypeId(settings.oldPriceType, r.state.priceTypes) : null
  const complete = r.progress.staged?.onlyChanges === false
  const pacer = new Pacer(50, 5, MAX_STEP, r.target)
  const offer = (o: ProductOffers) => itemName('Предложение', o.productId, o.name)
  while (r.progress.pos < count && r.inTime()) {
    // Each staged item is one product's offers (its characteristics'), taken as one input or
    // refused whole (a price or stock the site does not take): a position per product either way.
    const staged = await stagedItems(r.ctx.db, r.session.id, r.name, 'offer', r.progress.pos, pacer.size)
    // The characteristics' pictures, stored before the step that names them (as the products' are).
    const characteristics = staged.flatMap((offers) => offers.filter((o) => o.id.includes('#')))
    const images = await storeImages(r.ctx, r.session.id, characteristics, r.notes)
    const reading = { priceType, oldPriceType, images }
    const batch = productOffers(
      staged,
      (offers, variants, variantOffers, refused) =>
        offerInputs(offers, settings, reading, variants, variantOffers, refused)[0],
    )
    const before = r.progress.pos
    await pacer.time(batch.length, () =>
      writeEachOnError(
        batch,
        (part) =>
          r.step(
            async (unit, tally, skipped) => {
              tally.variants += part.reduce((sum, p) => sum + p.variants, 0)
              skipped.push(...part.flatMap((p) => p.refused))
              const inputs = part.flatMap((p) => (p.input ? [p.input] : []))
              const unknown = await applyOffers(unit, inputs, tally, r.owned, complete)
              skipped.push(...unknownOffers(part, unknown))
              r.progress.pos += part.length
            },
            part.flatMap((p) => p.variantOffers),
          ),
        (o, why) => r.skipOne(offer(o), why),
        offer,
        r.ctx.log,
      ),
    )
    await r.statistics(before)
  }
  if (r.progress.pos >= count) await nextPhase(r, 'done')
}
