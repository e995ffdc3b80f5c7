// A structure write's `variants` (docs/decisions/043-variants.md, "In the content export"): the
// product's whole list of variants, each with its option values, handed to the variant repository
// (catalogue/products/variant-rows.ts) as complete, so the product's price, old price and
// availability follow them. A variant is found again by its артикул, else by its title (1C's Ид is
// not in the API: a variant 1C sent is found the same way and keeps its Ид), so it keeps its id, its
// `?v=` and a request list's line when the same list is written again. Refused before anything of
// it is written, each field named (`variants.N.…`): an old price without a price or not above it,
// two variants of one артикул (or, without one, one title), an option named twice in a variant,
// and variants of a record that has no product part.
import type { ContentWrite } from '../content/content-write'
import { formatMoney } from '../../src/format/money'
import { HttpError } from '../http/http-error'
import { loadProductRows } from '../catalogue/products/product-rows'
import { loadVariants } from '../catalogue/products/product-row-reads'
import { writeVariants, type VariantInput } from '../catalogue/products/variant-rows'
import type { Availability } from '../data/schema'
import { findModel } from './registry'
import { columnsOf } from './write-rows'

type Values = Record<string, unknown>

interface VariantColumns {
  title: string
  article?: string | null
  price?: number | null
  oldPrice?: number | null
  availability?: Availability
  image?: string | null
}

interface OptionColumns {
  name: string
  value: string
  unit?: string | null
}

/** What finds a variant again: its артикул, else its title. */
const keyOf = (v: { readonly article?: string | null; readonly title?: string }) =>
  v.article ? `a:${v.article}` : `t:${v.title ?? ''}`

/**
 * The list's items as the repository takes them, or 400 with every failing field at once: checked
 * on its own, so a batch refuses a record for them before it writes any (batch-route.ts).
 */
export function variantInputsOf(items: readonly Values[]): VariantInput[] {
  const variantModel = findModel('productVariants')!
  const optionModel = findModel('variantOptions')!
  const errors: Record<string, string> = {}
  const keys = new Map<string, number>()
  const inputs = items.map((item, i): VariantInput => {
    const at = (field: string) => `variants.${i}.${field}`
    const row = columnsOf(variantModel, item) as unknown as VariantColumns
    const price = row.price ?? null
    const old = row.oldPrice ?? null
    if (old !== null && price === null) errors[at('oldPrice')] = 'Старая цена указывается только вместе с ценой'
    else if (old !== null && price !== null && old <= price)
      errors[at('oldPrice')] = `Старая цена должна быть больше цены (${formatMoney(price)})`
    const key = keyOf(row)
    const twin = keys.get(key)
    if (twin !== undefined) {
      errors[at(row.article ? 'article' : 'title')] = row.article
        ? `Артикул «${row.article}» уже есть у варианта ${twin + 1}: у вариантов товара разные артикулы`
        : `Вариант «${row.title}» указан дважды: у вариантов без артикула разные названия`
    } else keys.set(key, i)
    const options = ((item.options as Values[] | undefined) ?? []).map(
      (option) => columnsOf(optionModel, option) as unknown as OptionColumns,
    )
    for (const [j, option] of options.entries()) {
      if (options.findIndex((o) => o.name === option.name) !== j)
        errors[at(`options.${j}.name`)] = `Характеристика «${option.name}» указана дважды`
    }
    return { ...row, options }
  })
  if (Object.keys(errors).length > 0) {
    throw new HttpError(400, Object.values(errors)[0], 'validation_failed', errors)
  }
  return inputs
}

/**
 * Writes product `productId`'s variants as the list says: each found again by its key keeps its id,
 * a new one is added, a stored one not in the list is removed. An empty list for a record without
 * a product part is nothing to write.
 */
export async function writeVariantsPart(unit: ContentWrite, productId: number, items: readonly Values[]) {
  const inputs = variantInputsOf(items)
  if (!(await loadProductRows(unit.trx, [productId])).has(productId)) {
    if (inputs.length === 0) return
    const message = 'Варианты бывают только у товара: у записи нет части product'
    throw new HttpError(400, message, 'validation_failed', { variants: message })
  }
  const ids = new Map<string, number>()
  for (const variant of (await loadVariants(unit.trx, [productId])).get(productId) ?? []) {
    if (!ids.has(keyOf(variant))) ids.set(keyOf(variant), variant.id)
  }
  await writeVariants(
    unit,
    productId,
    inputs.map((input) => ({ ...input, id: ids.get(keyOf(input)) })),
    true,
  )
}
