// A price list against the catalogue (docs/decisions/029-price-list-and-feeds.md): the plan says,
// row by row, which product is updated, created or left alone, which section is created and which
// row is refused and why. The preview shows the plan; applying writes the plan's accepted rows
// through the write door in short transactions under the import's claim (catalogue/import-claim.ts),
// and is refused when the catalogue or the file changed since the preview the owner confirmed, or
// while another import writes. Applying the same file twice changes nothing; a file whose apply
// stopped midway, applied again, writes the rest.
import { rublesNumber } from '../../../src/format/money'
import { createHash } from 'node:crypto'
import type { Transaction } from 'kysely'
import { readContentVersion, type Db } from '../../data/db'
import type { Database } from '../../data/schema'
import { HttpError } from '../../http/http-error'
import type { WriteDoor } from '../write-door'
import {
  createSections,
  isNewSection,
  loadSectionTree,
  sectionResolver,
  type NewSection,
  type SectionEntry,
  type SectionTree,
} from '../catalogue-sections'
import { findFreeUrls } from '../free-urls'
import { claimImport, STALE_PREVIEW, writeInChunks, yieldToOthers, type ChunkStats } from '../import-claim'
import { describeColumns, isRefused, matchColumns, readRow, type PriceRow, type RefusedRow } from './price-columns'
import { productChange, propertyOps } from './price-row-changes'
import { readPriceList, type Sheet } from './price-list-file'
import {
  insertProducts,
  loadProductsByArticle,
  updateProducts,
  type ProductChange,
  type PropertyOp,
  type StoredProduct,
} from './price-store'

type Queryable = Db | Transaction<Database>

interface Update {
  readonly row: PriceRow
  readonly product: StoredProduct
  readonly change: ProductChange
  readonly properties: readonly PropertyOp[]
}

interface Create {
  readonly row: PriceRow & { name: string }
  readonly section: SectionEntry | NewSection
}

export interface ImportPlan {
  readonly sheet: Sheet
  readonly updates: readonly Update[]
  readonly creates: readonly Create[]
  readonly unchanged: number
  readonly refused: readonly RefusedRow[]
  /** The sections the new products need that do not exist yet, parents first */
  readonly newSections: readonly NewSection[]
  readonly home: SectionTree['home']
}

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
  /** The first changes, for a look: артикул, name, price before → after */
  readonly sample: readonly {
    number: number
    article: string
    title: string
    price: [number | null, number | null] | null
    kind: 'update' | 'create'
  }[]
  /** Sent back with «Применить»: the file and the catalogue must be the ones previewed */
  readonly confirm: string
}

export interface ApplyResult extends Omit<PricePreview, 'confirm' | 'sample'> {
  /** Ids of the products created or changed (their URLs go to IndexNow) */
  readonly changedIds: readonly number[]
}

const SAMPLE = 50
/** Rows read between two yields of the event loop */
const ROWS_PER_TURN = 1000

/** Reads the rows and compares them with the catalogue; writes nothing. */
export async function planImport(db: Queryable, sheet: Sheet): Promise<ImportPlan> {
  const columns = matchColumns(sheet.header)
  const refused: RefusedRow[] = []
  const rows: PriceRow[] = []
  const firstRowOf = new Map<string, number>()
  for (const [i, sheetRow] of sheet.rows.entries()) {
    if (i % ROWS_PER_TURN === ROWS_PER_TURN - 1) await yieldToOthers()
    const row = readRow(columns, sheetRow)
    if (isRefused(row)) {
      refused.push(row)
      continue
    }
    const first = firstRowOf.get(row.article)
    if (first !== undefined) {
      refused.push({ number: row.number, article: row.article, reason: `Артикул уже был в строке ${first}` })
      continue
    }
    firstRowOf.set(row.article, row.number)
    rows.push(row)
  }
  const existing = await loadProductsByArticle(db, [...firstRowOf.keys()])
  const tree = await loadSectionTree(db)
  const sections = sectionResolver(tree)
  const updates: Update[] = []
  const creates: Create[] = []
  let unchanged = 0
  for (const [i, row] of rows.entries()) {
    if (i % ROWS_PER_TURN === ROWS_PER_TURN - 1) await yieldToOthers()
    const products = existing.get(row.article) ?? []
    if (products.length > 1) {
      refused.push({
        number: row.number,
        article: row.article,
        reason: `Артикул есть у ${products.length} товаров на сайте: исправьте их в админке`,
      })
      continue
    }
    if (products.length === 1) {
      const product = products[0]
      const change = productChange(row, product)
      const properties = propertyOps(row, product)
      if (Object.keys(change).length === 0 && properties.length === 0) unchanged++
      else updates.push({ row, product, change, properties })
      continue
    }
    if (row.name === undefined) {
      refused.push({
        number: row.number,
        article: row.article,
        reason: 'Товара с таким артикулом нет на сайте, а для нового товара нужно наименование',
      })
      continue
    }
    if (row.section === undefined) {
      refused.push({
        number: row.number,
        article: row.article,
        reason: 'Товара с таким артикулом нет на сайте, а для нового товара нужен раздел',
      })
      continue
    }
    const section = sections.resolve(row.section)
    if (typeof section === 'string') refused.push({ number: row.number, article: row.article, reason: section })
    else creates.push({ row: row as PriceRow & { name: string }, section })
  }
  refused.sort((a, b) => a.number - b.number)
  return { sheet, updates, creates, unchanged, refused, newSections: sections.planned(), home: tree.home }
}

function fingerprint(bytes: Buffer, version: number): string {
  return `${version}.${createHash('sha256').update(bytes).digest('hex').slice(0, 32)}`
}

function counts(plan: ImportPlan) {
  return {
    format: plan.sheet.format,
    encoding: plan.sheet.encoding ?? null,
    columns: describeColumns(plan.sheet, matchColumns(plan.sheet.header)),
    rows: plan.sheet.rows.length,
    updated: plan.updates.length,
    created: plan.creates.length,
    unchanged: plan.unchanged,
    refused: plan.refused,
    sections: plan.newSections.map((section) => section.path),
  }
}

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
  ]
  return { ...counts(plan), sample, confirm: fingerprint(bytes, version) }
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
    const urls = await findFreeUrls(
      door.db,
      plan.creates.map(({ row }, i) => ({ parentUrl: placed[i].urlFull, name: row.name, fallback: row.article })),
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
    return { ...counts(plan), changedIds }
  } finally {
    await claim.release()
  }
}
