// A price list against the catalogue (docs/decisions/029-price-list-and-feeds.md): the plan
// (price-plan.ts) says, row by row, which product is updated, created or left alone, which section
// is created and which row is refused and why, and model by model which variants change (decision
// 043). The preview shows the plan; applying writes the plan's accepted rows
// through the write door in short transactions under the import's claim (catalogue/import-claim.ts),
// and is refused when the catalogue or the file changed since the preview the owner confirmed, or
// while another import writes. Applying the same file twice changes nothing; a file whose apply
// stopped midway, applied again, writes the rest.
import { rublesNumber } from '../../../src/format/money'
import { createHash } from 'node:crypto'
import { readContentVersion, type Db } from '../../data/db'
import { HttpError } from '../../http/http-error'
import type { WriteDoor } from '../write-door'
import { createSections, isNewSection } from '../catalogue-sections'
import { findFreeUrls } from '../free-urls'
import { claimImport, STALE_PREVIEW, writeInChunks, type ChunkStats } from '../import-claim'
import { describeColumns, matchColumns, type RefusedRow } from './price-columns'
import { readPriceList } from './price-list-file'
import { planImport, type ImportPlan } from './price-plan'
import { insertProducts, updateProducts } from './price-store'
import { writeModels } from './price-variant-store'

/** What the owner sees before confirming, and what `npm run content -- import-prices` prints. */
export interface PricePreview {
  readonly format: 'csv' | 'xlsx'
  readonly encoding: string | null
  readonly columns: ReturnType<typeof describeColumns>
  readonly rows: number
  readonly updated: number
  readonly created: number
  readonly unchanged: number
  readonly refused: readonly RefusedRow[]
  /** «будут созданы разделы: …»: the new sections' paths («Электроинструмент / Дрели») */
  readonly sections: readonly string[]
  /** The variants of the models' rows (a model is one product in the counts above) */
  readonly variants: { readonly created: number; readonly updated: number; readonly removed: number }
  /** The first changes, for a look: артикул, name («Товар, вариант» for a variant), price before → after */
  readonly sample: readonly {
    number: number
    article: string
    title: string
    price: [number | null, number | null] | null
    kind: 'update' | 'create'
  }[]
  /** The first variants a model no longer names, removed on apply: «Товар, вариант» and its артикул */
  readonly removedVariants: readonly { article: string | null; title: string }[]
  /** Sent back with «Применить»: the file and the catalogue must be the ones previewed */
  readonly confirm: string
}

export interface ApplyResult extends Omit<PricePreview, 'confirm' | 'sample' | 'removedVariants'> {
  /** Ids of the products created or changed (their URLs go to IndexNow) */
  readonly changedIds: readonly number[]
}

const SAMPLE = 50

function fingerprint(bytes: Buffer, version: number): string {
  return `${version}.${createHash('sha256').update(bytes).digest('hex').slice(0, 32)}`
}

function counts(plan: ImportPlan) {
  return {
    format: plan.sheet.format,
    encoding: plan.sheet.encoding ?? null,
    columns: describeColumns(plan.sheet, matchColumns(plan.sheet.header)),
    rows: plan.sheet.rows.length,
    updated: plan.updates.length + plan.models.filter((m) => m.plan.product !== null && !m.plan.unchanged).length,
    created: plan.creates.length + plan.models.filter((m) => m.plan.product === null).length,
    unchanged: plan.unchanged,
    refused: plan.refused,
    sections: plan.newSections.map((section) => section.path),
    variants: {
      created: changesOf(plan, 'create').length,
      updated: changesOf(plan, 'update').length,
      removed: plan.models.reduce((sum, m) => sum + m.plan.removed.length, 0),
    },
  }
}

const changesOf = (plan: ImportPlan, kind: 'create' | 'update') =>
  plan.models.flatMap((m) => m.plan.changes.filter((c) => c.kind === kind))

export async function previewPriceList(db: Db, bytes: Buffer): Promise<PricePreview> {
  const sheet = await readPriceList(bytes)
  const version = await readContentVersion(db)
  const plan = await planImport(db, sheet)
  const sample = [
    ...plan.updates.slice(0, SAMPLE).map((u) => ({
      number: u.row.number,
      article: u.row.article,
      title: u.change.title ?? u.product.title,
      price: u.change.price !== undefined ? rubles(u.product.price, u.change.price) : null,
      kind: 'update' as const,
    })),
    ...plan.creates.slice(0, SAMPLE).map((c) => ({
      number: c.row.number,
      article: c.row.article,
      title: c.row.name,
      price: rubles(null, c.row.price ?? null),
      kind: 'create' as const,
    })),
    ...plan.models
      .flatMap((m) => m.plan.changes)
      .slice(0, SAMPLE)
      .map((c) => ({ ...c, price: c.price && rubles(c.price[0], c.price[1]) })),
  ]
  const removedVariants = plan.models
    .flatMap((m) => m.plan.removed.map((v) => ({ article: v.article, title: `${m.plan.model}, ${v.title}` })))
    .slice(0, SAMPLE)
  return { ...counts(plan), sample, removedVariants, confirm: fingerprint(bytes, version) }
}

/** A price before and after, in rubles as the API answers (kopecks inside). */
const rubles = (before: number | null, after: number | null): [number | null, number | null] => [
  before === null ? null : rublesNumber(before),
  after === null ? null : rublesNumber(after),
]

/**
 * Writes the accepted rows of the file the owner previewed: the new sections, then the changed
 * products and the new ones, each in short transactions under the import's claim. Throws 409 when
 * the catalogue changed since the preview (`confirm` is the preview's) or another import writes.
 */
export async function applyPriceList(
  door: WriteDoor,
  bytes: Buffer,
  confirm: string,
  stats?: ChunkStats,
): Promise<ApplyResult> {
  const version = Number(/^(\d+)\./.exec(confirm)?.[1])
  if (!Number.isSafeInteger(version) || fingerprint(bytes, version) !== confirm) {
    throw new HttpError(409, STALE_PREVIEW, 'stale_preview')
  }
  const sheet = await readPriceList(bytes)
  // Planned before the claim; the claim is taken only if no content write came since the preview,
  // so the plan is the one the owner saw.
  const plan = await planImport(door.db, sheet)
  const claim = await claimImport(door.db, 'price-list', version)
  try {
    const sections = await createSections(door, door.db, plan.newSections, plan.home, (unit) => claim.renew(unit.trx))
    const changedIds: number[] = []
    changedIds.push(
      ...(await writeInChunks(
        door,
        claim,
        plan.updates,
        async (unit, part) => {
          await updateProducts(unit, part)
          return part.map((update) => update.product.id)
        },
        { stats },
      )),
    )
    const placed = plan.creates.map(({ section }) => (isNewSection(section) ? sections.get(section.key)! : section))
    // The new models' products take their URLs in the same pass, so a product and a model of one name get two.
    const fresh = plan.models.filter((m) => m.section !== null)
    const modelPlaces = fresh.map(({ section }) => (isNewSection(section!) ? sections.get(section.key)! : section!))
    const urls = await findFreeUrls(door.db, [
      ...plan.creates.map(({ row }, i) => ({ parentUrl: placed[i].urlFull, name: row.name, fallback: row.article })),
      ...fresh.map(({ plan: model }, i) => ({
        parentUrl: modelPlaces[i].urlFull,
        name: model.model,
        fallback: model.rows[0].article || 'model',
      })),
    ])
    const placeOf = new Map(
      fresh.map((m, i) => [m, { parentId: modelPlaces[i].id, urlFull: urls[plan.creates.length + i] }]),
    )
    const news = plan.creates.map(({ row }, i) => ({
      parentId: placed[i].id,
      urlFull: urls[i],
      title: row.name,
      article: row.article,
      price: row.price ?? null,
      oldPrice: row.oldPrice ?? null,
      availability: row.availability ?? ('in_stock' as const),
      vendor: row.vendor ?? null,
      properties: [...row.properties.values()].flatMap((p) =>
        p.value === null ? [] : [{ name: p.name, value: p.value, unit: p.unit }],
      ),
    }))
    changedIds.push(...(await writeInChunks(door, claim, news, (unit, part) => insertProducts(unit, part), { stats })))
    const models = plan.models
      .filter((m) => !m.plan.unchanged)
      .map((m) => ({ plan: m.plan, place: placeOf.get(m) ?? null }))
    changedIds.push(...(await writeInChunks(door, claim, models, (unit, part) => writeModels(unit, part), { stats })))
    return { ...counts(plan), changedIds }
  } finally {
    await claim.release()
  }
}
