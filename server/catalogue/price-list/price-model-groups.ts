// The rows of a price list's models (issue 46 item 3, docs/decisions/043-variants.md), grouped and
// given their products: rows that share a «Модель» under one section are one product's variants,
// found by their артикулы (the variants' the site has), else by the model's title in its section,
// else a new product there; a variant's артикул in a row without a model is a row of its product.
// Each group is then planned by price-models.ts. Writes nothing.
import type { Transaction } from 'kysely'
import type { Db } from '../../data/db'
import type { Database } from '../../data/schema'
import { isNewSection, type NewSection, type SectionEntry, type sectionResolver } from '../catalogue-sections'
import { normalizeHeader, type PriceRow, type RefusedRow } from './price-columns'
import { planModel, type ModelGroup, type ModelPlan } from './price-models'
import type { StoredProduct } from './price-store'
import { loadProductsById, loadProductsByTitle, loadStoredVariants } from './price-variant-store'

type Queryable = Db | Transaction<Database>
type SectionResolver = ReturnType<typeof sectionResolver>

/** A model's plan, and for a new product its section. */
export interface ModelEntry {
  readonly plan: ModelPlan
  readonly section: SectionEntry | NewSection | null
}

/** A model's rows are one product per section: the model and the section, case and spaces aside. */
const modelKey = (model: string, section: string | undefined) =>
  `${normalizeHeader(section ?? '').replace(/\s*\/\s*/g, '/')}\u0000${normalizeHeader(model)}`

export const NO_SECTION = 'нет на сайте, а для нового товара нужен раздел'

/** The rows of one model (or of one product's variants, `productId`) as read. */
interface RawGroup {
  readonly model: string
  readonly section?: string
  readonly rows: PriceRow[]
  readonly productId?: number
}

/** A row for each of a group's rows, with one reason. */
const refuseAll = (group: RawGroup, reason: string): RefusedRow[] =>
  group.rows.map((r) => ({ number: r.number, article: r.article || null, reason }))

/** The rows of a model, or of a variant's артикул without one (by its product); the other rows are left for products. */
function groupRows(
  rows: readonly PriceRow[],
  owners: ReadonlyMap<string, number[]>,
  existing: ReadonlyMap<string, StoredProduct[]>,
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
  return { groups: [...groups.values()], plain, refused }
}

/**
 * Each group's product: the one its rows' артикулы are variants of, else the one of its title in
 * its section, else a new one in that section (the section is planned when the site lacks it).
 */
async function findProducts(
  db: Queryable,
  groups: readonly RawGroup[],
  owners: ReadonlyMap<string, number[]>,
  existing: ReadonlyMap<string, StoredProduct[]>,
  sections: SectionResolver,
) {
  const refused: RefusedRow[] = []
  const productOf = new Map<RawGroup, number | SectionEntry | NewSection>()
  const byTitle: { parentId: number; title: string }[] = []
  for (const group of groups) {
    const ids = new Set(group.rows.flatMap((r) => (existing.has(r.article) ? [] : (owners.get(r.article) ?? []))))
    if (group.productId !== undefined) ids.add(group.productId)
    if (ids.size > 1) {
      refused.push(...refuseAll(group, `Модель «${group.model}»: артикулы её строк — варианты разных товаров на сайте`))
      continue
    }
    if (ids.size === 1) {
      productOf.set(group, [...ids][0])
      continue
    }
    if (group.section === undefined) {
      refused.push(...refuseAll(group, `Модели «${group.model}» ${NO_SECTION}`))
      continue
    }
    const section = sections.resolve(group.section)
    if (typeof section === 'string') {
      refused.push(...refuseAll(group, section))
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
      refused.push(
        ...refuseAll(
          group,
          `Модель «${group.model}»: в разделе ${namesakes.length} товара с таким названием, исправьте их`,
        ),
      )
      productOf.delete(group)
    }
  }
  // One product's rows under two models (or with and without one): each would undo the other's.
  const first = new Map<number, RawGroup>()
  const shared = new Set<number>()
  for (const [group, found] of productOf) {
    if (typeof found !== 'number') continue
    const before = first.get(found)
    if (!before) {
      first.set(found, group)
      continue
    }
    shared.add(found)
    const name = before.model || group.model
    refused.push(
      ...refuseAll(group, `Это варианты того же товара, что и строки модели «${name}» выше: дайте им одну модель`),
    )
    productOf.delete(group)
  }
  return { productOf, shared, refused }
}

/**
 * The rows of variants, model by model: a model's rows find their product by their артикулы (the
 * variants' the site has), else by its title in their section; a variant's артикул without a model
 * is a row of its product. Returns the plans, their refused rows and the rows left for products.
 * `incomplete`: the models (normalized) with a refused row, whose variants the file does not all name.
 */
export async function planModels(
  db: Queryable,
  rows: readonly PriceRow[],
  owners: ReadonlyMap<string, number[]>,
  existing: ReadonlyMap<string, StoredProduct[]>,
  sections: SectionResolver,
  incomplete: ReadonlySet<string>,
) {
  const grouped = groupRows(rows, owners, existing)
  const { productOf, shared, refused } = await findProducts(db, grouped.groups, owners, existing, sections)
  refused.push(...grouped.refused)
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
      explicit: group.productId === undefined,
      complete:
        group.productId === undefined &&
        own.length === group.rows.length &&
        !shared.has(product?.id ?? 0) &&
        !incomplete.has(normalizeHeader(group.model)),
      rows: own,
    }
    const planned = planModel(modelGroup, product, product ? (variants.get(product.id) ?? []) : [])
    refused.push(...planned.refused)
    if (planned.plan) models.push({ plan: planned.plan, section: typeof found === 'number' ? null : found })
  }
  return { models, refused, plain: grouped.plain }
}
