// A price list's plan (docs/decisions/029-price-list-and-feeds.md): row by row, which product is
// updated, created or left alone, which section is created and which row is refused and why; and
// the rows of variants (decision 043), a model's or a variant's артикул without one, model by model
// (price-model-groups.ts, price-models.ts). price-import.ts previews and applies it. Writes nothing.
import type { Transaction } from 'kysely'
import type { Db } from '../../data/db'
import type { Database } from '../../data/schema'
import {
  isNewSection,
  loadSectionTree,
  sectionResolver,
  type NewSection,
  type SectionEntry,
  type SectionTree,
} from '../catalogue-sections'
import { yieldToOthers } from '../import-claim'
import { isRefused, matchColumns, normalizeHeader, readRow, type PriceRow, type RefusedRow } from './price-columns'
import type { Sheet } from './price-list-file'
import { NO_SECTION, planModels, type ModelEntry } from './price-model-groups'
import { productChange, propertyOps } from './price-row-changes'
import { loadProductsByArticle, type ProductChange, type PropertyOp, type StoredProduct } from './price-store'
import { loadStoredVariants, loadVariantProducts } from './price-variant-store'

type Queryable = Db | Transaction<Database>

export interface Update {
  readonly row: PriceRow
  readonly product: StoredProduct
  readonly change: ProductChange
  readonly properties: readonly PropertyOp[]
}

export interface Create {
  readonly row: PriceRow & { name: string }
  readonly section: SectionEntry | NewSection
}

export interface ImportPlan {
  readonly sheet: Sheet
  readonly updates: readonly Update[]
  readonly creates: readonly Create[]
  readonly models: readonly ModelEntry[]
  readonly unchanged: number
  readonly refused: readonly RefusedRow[]
  /** The sections the new products need that do not exist yet, parents first */
  readonly newSections: readonly NewSection[]
  readonly home: SectionTree['home']
}

/** Rows read between two yields of the event loop */
const ROWS_PER_TURN = 1000

/** Reads the rows and compares them with the catalogue; writes nothing. */
export async function planImport(db: Queryable, sheet: Sheet): Promise<ImportPlan> {
  const columns = matchColumns(sheet.header)
  const refused: RefusedRow[] = []
  const read: PriceRow[] = []
  const firstRowOf = new Map<string, number>()
  // The models with a refused row: not all their variants are in the file.
  const incomplete = new Set<string>()
  const modelCell = columns.fields.model
  for (const [i, sheetRow] of sheet.rows.entries()) {
    if (i % ROWS_PER_TURN === ROWS_PER_TURN - 1) await yieldToOthers()
    const row = readRow(columns, sheetRow)
    const first = isRefused(row) || row.article === '' ? undefined : firstRowOf.get(row.article)
    if (isRefused(row) || first !== undefined) {
      if (modelCell !== undefined) incomplete.add(normalizeHeader(sheetRow.cells[modelCell] ?? ''))
      refused.push(
        isRefused(row)
          ? row
          : { number: row.number, article: row.article, reason: `Артикул уже был в строке ${first}` },
      )
      continue
    }
    if (row.article !== '') firstRowOf.set(row.article, row.number)
    read.push(row)
  }
  const articles = [...firstRowOf.keys()]
  const existing = await loadProductsByArticle(db, articles)
  const owners = await loadVariantProducts(db, articles)
  const tree = await loadSectionTree(db)
  const sections = sectionResolver(tree)
  const {
    models,
    refused: modelRefused,
    plain: rows,
  } = await planModels(db, read, owners, existing, sections, incomplete)
  refused.push(...modelRefused)
  const withVariants = await loadStoredVariants(
    db,
    rows.flatMap((row) => (existing.get(row.article) ?? []).map((p) => p.id)),
  )
  const updates: Update[] = []
  const creates: Create[] = []
  let unchanged = models.filter((m) => m.plan.unchanged).length
  for (const [i, row] of rows.entries()) {
    if (i % ROWS_PER_TURN === ROWS_PER_TURN - 1) await yieldToOthers()
    const products = existing.get(row.article) ?? []
    const refuse = (reason: string) => refused.push({ number: row.number, article: row.article, reason })
    if (products.length > 1) {
      refuse(`Артикул есть у ${products.length} товаров на сайте: исправьте их в админке`)
      continue
    }
    if (products.length === 1) {
      const product = products[0]
      const change = productChange(row, product)
      const properties = propertyOps(row, product)
      if (withVariants.has(product.id) && ('price' in change || 'oldPrice' in change || 'availability' in change)) {
        refuse('У товара есть варианты: цену и наличие задают строки вариантов, с их артикулами и столбцом «Модель»')
      } else if (Object.keys(change).length === 0 && properties.length === 0) unchanged++
      else updates.push({ row, product, change, properties })
      continue
    }
    if (row.name === undefined) {
      refuse('Товара с таким артикулом нет на сайте, а для нового товара нужно наименование')
      continue
    }
    if (row.section === undefined) {
      refuse(`Товара с таким артикулом ${NO_SECTION}`)
      continue
    }
    const section = sections.resolve(row.section)
    if (typeof section === 'string') refuse(section)
    else creates.push({ row: row as PriceRow & { name: string }, section })
  }
  refused.sort((a, b) => a.number - b.number)
  // Only the new sections an accepted product or model goes in (a model refused as a whole after its
  // section was planned leaves no empty section behind).
  const used = new Set<NewSection>()
  for (const { section } of [...creates, ...models]) {
    let at: SectionEntry | NewSection | null = section
    while (at && isNewSection(at)) {
      used.add(at)
      at = at.parent
    }
  }
  const newSections = sections.planned().filter((s) => used.has(s))
  return { sheet, updates, creates, models, unchanged, refused, newSections, home: tree.home }
}
