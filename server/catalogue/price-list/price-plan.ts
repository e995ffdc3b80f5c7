// A price list's plan (docs/decisions/029-price-list-and-feeds.md): row by row, which product is
// updated, created or left alone, which section is created and which row is refused and why; and
// the rows of variants (decision 043), a model's or a variant's артикул without one, model by model
// (price-models.ts). price-import.ts previews and applies it. Writes nothing.
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
import { planModel, type ModelGroup, type ModelPlan } from './price-models'
import { productChange, propertyOps } from './price-row-changes'
import { loadProductsByArticle, type ProductChange, type PropertyOp, type StoredProduct } from './price-store'
import { loadProductsById, loadProductsByTitle, loadStoredVariants, loadVariantProducts } from './price-variant-store'

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

/** A model's plan, and for a new product its section. */
export interface ModelEntry {
  readonly plan: ModelPlan
  readonly section: SectionEntry | NewSection | null
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

/** A model's rows are one product per section: the model and the section, case and spaces aside. */
const modelKey = (model: string, section: string | undefined) =>
  `${normalizeHeader(section ?? '').replace(/\s*\/\s*/g, '/')}\u0000${normalizeHeader(model)}`

const NO_SECTION = 'нет на сайте, а для нового товара нужен раздел'

/** The rows of one model (or of one product's variants, `productId`) as read. */
interface RawGroup {
  readonly model: string
  readonly section?: string
  readonly rows: PriceRow[]
  readonly productId?: number
}

/**
 * The rows of variants, model by model: a model's rows find their product by their артикулы (the
 * variants' the site has), else by its title in their section; a variant's артикул without a model
 * is a row of its product. Returns the plans, their refused rows and the rows left for products.
 */
async function planModels(
  db: Queryable,
  rows: readonly PriceRow[],
  owners: ReadonlyMap<string, number[]>,
  existing: ReadonlyMap<string, StoredProduct[]>,
  sections: ReturnType<typeof sectionResolver>,
  incomplete: ReadonlySet<string>,
) {
  const refused: RefusedRow[] = []
  const groups = new Map<string, RawGroup>()
  const plain: PriceRow[] = []
  for (const row of rows) {
    const ownerIds = existing.has(row.article) ? [] : (owners.get(row.article) ?? [])
    if (row.model === undefined && ownerIds.length > 1) {
      refused.push({
        number: row.number,
        article: row.article,
        reason: `Артикул есть у вариантов ${ownerIds.length} товаров на сайте: исправьте их`,
      })
      continue
    }
    const key =
      row.model !== undefined ? modelKey(row.model, row.section) : ownerIds.length === 1 ? `#${ownerIds[0]}` : null
    if (key === null) {
      plain.push(row)
      continue
    }
    const group = groups.get(key) ?? {
      model: row.model ?? '',
      section: row.section,
      rows: [],
      productId: row.model === undefined ? ownerIds[0] : undefined,
    }
    group.rows.push(row)
    groups.set(key, group)
  }

  // Each group's product: its variants' артикулы, else its title in its section, else a new one.
  const productOf = new Map<RawGroup, number | SectionEntry | NewSection>()
  const byTitle: { parentId: number; title: string }[] = []
  for (const group of groups.values()) {
    const ids = new Set(group.rows.flatMap((r) => (existing.has(r.article) ? [] : (owners.get(r.article) ?? []))))
    if (group.productId !== undefined) ids.add(group.productId)
    if (ids.size > 1) {
      const reason = `Модель «${group.model}»: артикулы её строк — варианты разных товаров на сайте`
      refused.push(...group.rows.map((r) => ({ number: r.number, article: r.article || null, reason })))
      continue
    }
    if (ids.size === 1) {
      productOf.set(group, [...ids][0])
      continue
    }
    if (group.section === undefined) {
      const reason = `Модели «${group.model}» ${NO_SECTION}`
      refused.push(...group.rows.map((r) => ({ number: r.number, article: r.article || null, reason })))
      continue
    }
    const section = sections.resolve(group.section)
    if (typeof section === 'string') {
      refused.push(...group.rows.map((r) => ({ number: r.number, article: r.article || null, reason: section })))
      continue
    }
    productOf.set(group, section)
    if (!isNewSection(section)) byTitle.push({ parentId: section.id, title: group.model })
  }
  const titled = await loadProductsByTitle(db, byTitle)
  for (const [group, found] of productOf) {
    if (typeof found === 'number' || isNewSection(found)) continue
    const namesakes = titled.get(`${found.id} ${group.model}`) ?? []
    if (namesakes.length === 1) productOf.set(group, namesakes[0].id)
    if (namesakes.length > 1) {
      const reason = `Модель «${group.model}»: в разделе ${namesakes.length} товара с таким названием, исправьте их`
      refused.push(...group.rows.map((r) => ({ number: r.number, article: r.article || null, reason })))
      productOf.delete(group)
    }
  }

  const ids = [...productOf.values()].filter((v) => typeof v === 'number')
  const products = await loadProductsById(db, ids)
  const variants = await loadStoredVariants(db, ids)
  const models: ModelEntry[] = []
  for (const [group, found] of productOf) {
    const product = typeof found === 'number' ? products.get(found)! : null
    // A model row with a product's own артикул (not its product's) would give a variant another product's артикул.
    const taken = (r: PriceRow) => (existing.get(r.article) ?? []).find((p) => p.id !== product?.id)
    for (const row of group.rows) {
      const other = taken(row)
      if (other)
        refused.push({
          number: row.number,
          article: row.article,
          reason: `Артикул у товара «${other.title}» на сайте: у варианта модели артикул должен быть свой`,
        })
    }
    const own = group.rows.filter((r) => !taken(r))
    if (own.length === 0) continue
    const modelGroup: ModelGroup = {
      model: group.productId === undefined ? group.model : product!.title,
      complete:
        group.productId === undefined &&
        own.length === group.rows.length &&
        !incomplete.has(normalizeHeader(group.model)),
      rows: own,
    }
    const planned = planModel(modelGroup, product, product ? (variants.get(product.id) ?? []) : [])
    refused.push(...planned.refused)
    if (planned.plan) models.push({ plan: planned.plan, section: typeof found === 'number' ? null : found })
  }
  return { models, refused, plain }
}

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
  return { sheet, updates, creates, models, unchanged, refused, newSections: sections.planned(), home: tree.home }
}
