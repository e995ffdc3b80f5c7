// A price list against the catalogue (docs/decisions/029-price-list-and-feeds.md): the plan says,
// row by row, which product is updated, created or left alone and which row is refused and why.
// The preview shows the plan; applying writes the plan's accepted rows through the write door (all
// of them or none), and is refused when the catalogue or the file changed since the preview the
// owner confirmed. Applying the same file twice changes nothing.
import { createHash } from 'node:crypto'
import type { Transaction } from 'kysely'
import { readContentVersion, type Db } from '../../data/db'
import type { Database } from '../../data/schema'
import { HttpError } from '../../http/http-error'
import type { WriteDoor } from '../write-door'
import { describeColumns, isRefused, matchColumns, readRow, type PriceRow, type RefusedRow } from './price-columns'
import { productChange, propertyOps, sectionFinder } from './price-row-changes'
import { readPriceList, type Sheet } from './price-list-file'
import {
  insertProduct,
  isUrlFree,
  loadProductsByArticle,
  loadSections,
  updateProduct,
  type ProductChange,
  type PropertyOp,
  type SectionEntry,
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
  readonly section: SectionEntry
}

export interface ImportPlan {
  readonly sheet: Sheet
  readonly updates: readonly Update[]
  readonly creates: readonly Create[]
  readonly unchanged: number
  readonly refused: readonly RefusedRow[]
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

/** Reads the rows and compares them with the catalogue; writes nothing. */
export async function planImport(db: Queryable, sheet: Sheet): Promise<ImportPlan> {
  const columns = matchColumns(sheet.header)
  const refused: RefusedRow[] = []
  const rows: PriceRow[] = []
  const firstRowOf = new Map<string, number>()
  for (const sheetRow of sheet.rows) {
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
  const findSection = sectionFinder(await loadSections(db))
  const updates: Update[] = []
  const creates: Create[] = []
  let unchanged = 0
  for (const row of rows) {
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
    const section = findSection(row.section)
    if (typeof section === 'string') refused.push({ number: row.number, article: row.article, reason: section })
    else creates.push({ row: row as PriceRow & { name: string }, section })
  }
  refused.sort((a, b) => a.number - b.number)
  return { sheet, updates, creates, unchanged, refused }
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
      price:
        u.change.price !== undefined ? ([u.product.price, u.change.price] as [number | null, number | null]) : null,
      kind: 'update' as const,
    })),
    ...plan.creates.slice(0, SAMPLE).map((c) => ({
      number: c.row.number,
      article: c.row.article,
      title: c.row.name,
      price: [null, c.row.price ?? null] as [number | null, number | null],
      kind: 'create' as const,
    })),
  ]
  return { ...counts(plan), sample, confirm: fingerprint(bytes, version) }
}

/** A free URL for a new product in its section: the name transliterated, then -2, -3, … */
async function freeUrl(
  trx: Transaction<Database>,
  section: SectionEntry,
  row: PriceRow & { name: string },
  taken: Set<string>,
) {
  const { slugify } = await import('transliteration') // on first use (decision 031, "Start-up")
  const base = section.urlFull.endsWith('/') ? section.urlFull : `${section.urlFull}/`
  const slug =
    slugify(row.name, { lowercase: true, separator: '-' }).slice(0, 80).replace(/-+$/, '') ||
    slugify(row.article) ||
    'tovar'
  for (let n = 1; ; n++) {
    const url = `${base}${slug}${n === 1 ? '' : `-${n}`}`
    if (taken.has(url) || !(await isUrlFree(trx, url)) || !(await isUrlFree(trx, `${url}/`))) continue
    taken.add(url)
    return url
  }
}

/**
 * Writes the accepted rows of the file the owner previewed, in one transaction. Throws 409 when the
 * catalogue changed since the preview (`confirm` is the preview's).
 */
export async function applyPriceList(door: WriteDoor, bytes: Buffer, confirm: string): Promise<ApplyResult> {
  const sheet = await readPriceList(bytes)
  return door.write(async (unit) => {
    const trx = unit.trx
    if (fingerprint(bytes, await readContentVersion(trx)) !== confirm) {
      throw new HttpError(
        409,
        'Каталог или файл изменились после предпросмотра: загрузите файл и проверьте предпросмотр ещё раз',
        'stale_preview',
      )
    }
    const plan = await planImport(trx, sheet)
    const changedIds: number[] = []
    // The products as they were, in a few queries rather than one a row.
    await unit.touch(plan.updates.map((update) => update.product.id))
    for (const update of plan.updates) {
      await updateProduct(unit, update.product, update.change, update.properties)
      changedIds.push(update.product.id)
    }
    const taken = new Set<string>()
    for (const { row, section } of plan.creates) {
      const properties = [...row.properties.values()].flatMap((p) =>
        p.value === null ? [] : [{ name: p.name, value: p.value, unit: p.unit }],
      )
      const id = await insertProduct(unit, {
        parentId: section.id,
        urlFull: await freeUrl(trx, section, row, taken),
        title: row.name,
        article: row.article,
        price: row.price ?? null,
        oldPrice: row.oldPrice ?? null,
        availability: row.availability ?? 'in_stock',
        vendor: row.vendor ?? null,
        properties,
      })
      changedIds.push(id)
    }
    return { ...counts(plan), changedIds }
  })
}
