// A price list's models (issue 46 item 3, docs/decisions/043-variants.md): the rows that share a
// «Модель» under one section are one product (titled the model) and each row one of its variants:
// its артикул, price, old price and availability. A characteristic column whose value differs
// between the model's rows, or that names an option its variants already have, gives each variant
// its option row; the others are the product's own characteristics. A variant's title is the row's
// Наименование when it is not the model's own name (what the export writes), else its option values
// joined («Синий, 160×230»), else it stays; a new one without either is named by its артикул.
// This file plans one model against the catalogue; price-plan.ts finds the products, and
// price-variant-store.ts writes them through the variant repository (products/variant-rows.ts).
import type { Availability } from '../../data/schema'
import type { VariantInput } from '../products/variant-rows'
import type { PriceRow, RefusedRow } from './price-columns'
import { propertyOps } from './price-row-changes'
import type { ProductChange, PropertyOp, StoredProduct } from './price-store'

export interface VariantOption {
  readonly name: string
  readonly value: string
  readonly unit: string | null
}

export interface StoredVariant {
  readonly id: number
  readonly externalId: string | null
  readonly title: string
  readonly article: string | null
  readonly price: number | null
  readonly oldPrice: number | null
  readonly availability: Availability
  readonly options: VariantOption[]
}

/** The rows of one product's variants. */
export interface ModelGroup {
  /** The product's title: the rows' «Модель», or the product's own for its variants' rows without one */
  readonly model: string
  /** «Модель» was given: the product takes its title */
  readonly explicit: boolean
  /**
   * «Модель» was given and none of its rows was refused: the rows are all the product's variants,
   * so a variant the file does not name is removed.
   */
  readonly complete: boolean
  readonly rows: readonly PriceRow[]
}

/** A variant row's change, for the preview. */
export interface VariantChange {
  readonly number: number
  readonly article: string
  /** «Товар, вариант» */
  readonly title: string
  /** Kopecks before → after; null: the price stays */
  readonly price: readonly [number | null, number | null] | null
  readonly kind: 'update' | 'create'
}

export interface ModelPlan {
  readonly model: string
  readonly rows: readonly PriceRow[]
  /** The product on the site; null: a new one (price-plan.ts gives it its section) */
  readonly product: StoredProduct | null
  /** An existing product's own fields and characteristics */
  readonly change: ProductChange
  readonly properties: readonly PropertyOp[]
  /** A new product's brand and characteristics */
  readonly vendor: string | null
  readonly own: readonly VariantOption[]
  readonly variants: readonly VariantInput[]
  readonly complete: boolean
  readonly changes: readonly VariantChange[]
  /** The variants a complete model no longer names */
  readonly removed: readonly StoredVariant[]
  /** Nothing to write */
  readonly unchanged: boolean
}

/** A variant's title is a column of 250 characters (migration 032). */
const TITLE_MAX = 250

export const columnKey = (o: { name: string; unit: string | null }) => `${o.name}\u0000${o.unit ?? ''}`
const optionsKey = (options: readonly VariantOption[]) =>
  options.map((o) => `${columnKey(o)}\u0000${o.value}`).join('\u0001')

/** A variant's options: the file's option columns, the stored ones of columns the file lacks, in the stored order. */
function optionsOf(values: readonly VariantOption[], match: StoredVariant | undefined, columns: ReadonlySet<string>) {
  if (!match) return [...values]
  const place = (o: VariantOption) => {
    const i = match.options.findIndex((s) => columnKey(s) === columnKey(o))
    return i === -1 ? match.options.length : i
  }
  const kept = match.options.filter((o) => !columns.has(columnKey(o)))
  return [...values, ...kept].sort((a, b) => place(a) - place(b))
}

/** The product's own fields and characteristics the model's rows change. */
function productPart(
  group: ModelGroup,
  product: StoredProduct,
  shared: PriceRow['properties'],
  isOption: ReadonlySet<string>,
  vendor: string | null | undefined,
): { change: ProductChange; properties: PropertyOp[] } {
  const change: ProductChange = {
    ...(group.explicit && group.model !== product.title ? { title: group.model } : {}),
    ...(vendor !== undefined && vendor !== product.vendor ? { vendor } : {}),
  }
  const properties = propertyOps({ ...group.rows[0], properties: shared }, product)
  const touched = new Set(properties.flatMap((op) => (op.kind === 'insert' ? [] : [op.id])))
  // A characteristic that became an option is the variants' now, not the product's.
  for (const p of product.properties) {
    if (isOption.has(columnKey(p)) && !touched.has(p.id)) properties.push({ kind: 'delete', id: p.id })
  }
  return { change, properties }
}

/** One model's rows against its product (null: a new one) and its stored variants: the plan (null: all refused) and the refused rows. */
export function planModel(
  group: ModelGroup,
  product: StoredProduct | null,
  stored: readonly StoredVariant[],
): { plan: ModelPlan | null; refused: RefusedRow[] } {
  const { rows } = group
  const refuse = (row: PriceRow, reason: string) => ({ number: row.number, article: row.article || null, reason })
  const vendors = new Set(rows.filter((r) => r.vendor !== undefined).map((r) => r.vendor ?? null))
  if (vendors.size > 1) {
    const reason = `Модель «${group.model}»: в её строках разные бренды, а бренд у товара один`
    return { plan: null, refused: rows.map((row) => refuse(row, reason)) }
  }
  const vendor = vendors.size === 0 ? undefined : [...vendors][0]
  const columns = [...rows[0].properties.keys()]
  const storedOptions = new Set(stored.flatMap((v) => v.options.map(columnKey)))
  const isOption = new Set(
    columns.filter(
      (key) =>
        storedOptions.has(key) || rows.some((r) => r.properties.get(key)!.value !== rows[0].properties.get(key)!.value),
    ),
  )
  const shared = new Map([...rows[0].properties].filter(([key]) => !isOption.has(key)))
  const { change, properties } = product
    ? productPart(group, product, shared, isOption, vendor)
    : { change: {}, properties: [] }

  const refused: RefusedRow[] = []
  const variants: VariantInput[] = []
  const changes: VariantChange[] = []
  const matched = new Set<number>()
  const untitled = new Map<string, number>()
  for (const row of rows) {
    const values = columns
      .filter((key) => isOption.has(key))
      .flatMap((key) => {
        const { name, value, unit } = row.properties.get(key)!
        return value === null ? [] : [{ name, value, unit }]
      })
    const joined = values.map((o) => o.value).join(', ')
    const named = row.name !== undefined && row.name !== group.model ? row.name : joined || undefined
    const match = row.article
      ? stored.find((v) => v.article === row.article)
      : stored.find((v) => !v.article && v.title === (named ?? row.name))
    const title = named ?? (match ? match.title : row.name || row.article)
    if (title === '') {
      refused.push(refuse(row, 'Вариант без артикула: заполните «Наименование» или его характеристики'))
      continue
    }
    if (title.length > TITLE_MAX) {
      refused.push(refuse(row, `Наименование варианта: длиннее ${TITLE_MAX} символов`))
      continue
    }
    if (!row.article) {
      const first = untitled.get(title)
      if (first !== undefined) {
        refused.push(refuse(row, `Вариант «${title}» без артикула уже был в строке ${first}`))
        continue
      }
      untitled.set(title, row.number)
    }
    const options = optionsOf(values, match, new Set(columns))
    const input: VariantInput = {
      ...(match?.externalId ? { externalId: match.externalId } : {}),
      title,
      article: row.article || null,
      ...(row.price !== undefined ? { price: row.price } : {}),
      ...(row.oldPrice !== undefined ? { oldPrice: row.oldPrice } : {}),
      ...(row.availability ? { availability: row.availability } : {}),
      options,
    }
    variants.push(input)
    const shown = { number: row.number, article: row.article, title: `${group.model}, ${title}` }
    if (!match) {
      changes.push({ ...shown, price: [null, row.price ?? null], kind: 'create' })
      continue
    }
    matched.add(match.id)
    const price = row.price === undefined ? match.price : row.price
    const given = row.oldPrice === undefined ? match.oldPrice : row.oldPrice
    const oldPrice = given !== null && price !== null && given > price ? given : null
    const differs =
      price !== match.price ||
      oldPrice !== match.oldPrice ||
      (row.availability ?? match.availability) !== match.availability ||
      title !== match.title ||
      optionsKey(options) !== optionsKey(match.options)
    if (differs) changes.push({ ...shown, price: price === match.price ? null : [match.price, price], kind: 'update' })
  }
  const complete = group.complete && refused.length === 0
  const removed = complete ? stored.filter((v) => !matched.has(v.id)) : []
  if (variants.length === 0) return { plan: null, refused }
  const plan: ModelPlan = {
    model: group.model,
    rows,
    product,
    change,
    properties,
    vendor: vendor ?? null,
    own: [...shared.values()].flatMap((p) =>
      p.value === null ? [] : [{ name: p.name, value: p.value, unit: p.unit }],
    ),
    variants,
    complete,
    changes,
    removed,
    unchanged:
      product !== null &&
      Object.keys(change).length === 0 &&
      properties.length === 0 &&
      changes.length === 0 &&
      removed.length === 0,
  }
  return { plan, refused }
}
