// A variant as the editor's «Варианты» form holds it (docs/decisions/043-variants.md): texts as typed,
// prices as the owner writes rubles («1 299,90»), read exactly by src/format/money.ts on the way out,
// its picture as stored, a file chosen to upload, or none.
import { editableRubles, parseMoney, rublesNumber } from '../../../../src/format/money'
import type { EditorVariant, VariantWrite } from '../../../../src/admin/admin-variants'
import type { ProductAvailability } from '../../../../src/admin/admin-products'
import type { OneCField } from '../../../../src/catalogue/one-c-fields'
import type { ImageValue } from './record-draft'

export interface OptionDraft {
  name: string
  value: string
  unit: string | null
  /** Its name is known (the product's variants have it): the value's field is labelled by it */
  named: boolean
}

export interface VariantDraft {
  title: string
  article: string
  price: string
  oldPrice: string
  availability: ProductAvailability
  image: ImageValue
  options: OptionDraft[]
}

/** A characteristic the owner names: «Размер», «Цвет» */
export const NEW_OPTION: OptionDraft = { name: '', value: '', unit: null, named: false }

type OptionName = { readonly name: string; readonly unit: string | null }

/**
 * The form of a variant (or of a new one: `variant` null): one option field per characteristic the
 * product's variants differ by, then any others the variant has; a product without them offers one
 * empty characteristic to name.
 */
export function variantDraft(variant: EditorVariant | null, names: readonly OptionName[]): VariantDraft {
  const own = variant?.options ?? []
  const options: OptionDraft[] = names.map((n) => ({
    ...n,
    value: own.find((o) => o.name === n.name)?.value ?? '',
    named: true,
  }))
  for (const o of own) if (!names.some((n) => n.name === o.name)) options.push({ ...o, named: true })
  return {
    title: variant?.title ?? '',
    article: variant?.article ?? '',
    price: variant?.price == null ? '' : editableRubles(variant.price),
    oldPrice: variant?.oldPrice == null ? '' : editableRubles(variant.oldPrice),
    availability: variant?.availability ?? 'in_stock',
    image: variant?.image ?? null,
    options: options.length > 0 ? options : [NEW_OPTION],
  }
}

/**
 * A price as typed: rubles for the API, read exactly; what is no price goes as typed, so the API's
 * Russian message is shown under the field.
 */
function rubles(text: string): number | string | null {
  if (text.trim() === '') return null
  const read = parseMoney(text)
  return read.ok ? rublesNumber(read.kopecks) : text
}

/** What the form sends: every field (the API keeps what is sent as stored). */
export function variantWrite(draft: VariantDraft): VariantWrite {
  return {
    title: draft.title,
    article: draft.article.trim() === '' ? null : draft.article,
    price: rubles(draft.price) as number | null,
    oldPrice: rubles(draft.oldPrice) as number | null,
    availability: draft.availability,
    image: draft.image,
    options: draft.options.filter((o) => o.value.trim() !== '').map(({ name, value, unit }) => ({ name, value, unit })),
  }
}

/** The fields of a 1C variant a save would change that 1C overwrites (the question before it). */
export function changedOneCFields(before: VariantDraft, after: VariantDraft): OneCField[] {
  const changed: OneCField[] = []
  if (before.price.trim() !== after.price.trim() || before.oldPrice.trim() !== after.oldPrice.trim())
    changed.push('price')
  if (before.availability !== after.availability) changed.push('stock')
  return changed
}
