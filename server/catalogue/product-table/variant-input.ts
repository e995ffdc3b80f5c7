// A variant as the editor's «Варианты» sends it (docs/decisions/043-variants.md): its title, артикул,
// price and old price in rubles (read exactly as kopecks), availability, picture and option values, each
// refused with a Russian message under its field, every failing field at once (400, never a 500).
import type { Availability } from '../../data/schema'
import { HttpError } from '../../http/http-error'
import { cleanText } from '../../../src/validation/plain-text'
import { VARIANT_IMAGE_UPLOAD } from '../../../src/catalogue/variant-fields'
import { availabilityOf, money } from './admin-input'

/** At most this many option values a variant (a colour, a size…) */
const MAX_OPTIONS = 20

export interface VariantOptionInput {
  readonly name: string
  readonly value: string
  readonly unit: string | null
}

/** What a write of a variant sets; a field left undefined stays as stored (a new one: none). */
export interface VariantDraft {
  title?: string
  article?: string | null
  price?: number | null
  oldPrice?: number | null
  availability?: Availability
  /** A stored picture (`uploads/…`: one uploaded with the write, or the stored one sent back); null: none */
  image?: string | null
  options?: VariantOptionInput[]
}

const texts = (value: unknown): value is string => typeof value === 'string'

/** The draft a request's body says, or 400 with every failing field. `creating`: a title is needed. */
export function variantDraftOf(body: unknown, creating: boolean): VariantDraft {
  const input = (body !== null && typeof body === 'object' ? body : {}) as Record<string, unknown>
  const errors: Record<string, string> = {}
  const draft: VariantDraft = {}
  /** Runs a reader that throws a field's HttpError, keeping its message with the others. */
  const read = (reader: () => void) => {
    try {
      reader()
    } catch (error) {
      if (!(error instanceof HttpError) || !error.errors) throw error
      Object.assign(errors, error.errors)
    }
  }
  if (creating || 'title' in input) {
    const title = texts(input.title) ? cleanText(input.title, 'single-line') : ''
    if (title === '') errors.title = 'Укажите название варианта, например «Синий, 160×230»'
    else if ([...title].length > 250) errors.title = 'Название варианта — не длиннее 250 знаков'
    else draft.title = title
  }
  if ('article' in input) {
    const article = texts(input.article) ? cleanText(input.article, 'single-line') : null
    if (input.article !== null && !texts(input.article)) errors.article = 'Артикул — строка'
    else if (article !== null && [...article].length > 100) errors.article = 'Артикул — не длиннее 100 знаков'
    else draft.article = article || null
  }
  if ('price' in input) read(() => (draft.price = money(input.price, 'price', 'Цена')))
  if ('oldPrice' in input) read(() => (draft.oldPrice = money(input.oldPrice, 'oldPrice', 'Старая цена')))
  if ('availability' in input) read(() => (draft.availability = availabilityOf(input.availability)))
  else if (creating) draft.availability = 'in_stock'
  if ('image' in input) {
    // The path of a picture uploaded with the write (multipart), or the stored one: variant-editor.ts checks which.
    if (input.image === null || (texts(input.image) && input.image.length <= 300)) draft.image = input.image
    else errors.image = VARIANT_IMAGE_UPLOAD
  }
  if ('options' in input) draft.options = optionsOf(input.options, errors)
  if (Object.keys(errors).length > 0) {
    throw new HttpError(400, Object.values(errors)[0], 'validation_failed', errors)
  }
  if (!creating && Object.keys(draft).length === 0) {
    throw new HttpError(400, 'Нечего сохранить', 'validation_failed', { price: 'Нечего сохранить' })
  }
  return draft
}

/** Option values: an empty value is no option; a name twice, or a value without a name, is refused. */
function optionsOf(value: unknown, errors: Record<string, string>): VariantOptionInput[] {
  if (!Array.isArray(value) || value.length > MAX_OPTIONS) {
    errors.options = `Не более ${MAX_OPTIONS} характеристик варианта`
    return []
  }
  const out: VariantOptionInput[] = []
  for (const [i, row] of value.entries()) {
    const option = (row !== null && typeof row === 'object' ? row : {}) as Record<string, unknown>
    const name = texts(option.name) ? cleanText(option.name, 'single-line') : ''
    const text = texts(option.value) ? cleanText(option.value, 'single-line') : ''
    const unit = texts(option.unit) ? cleanText(option.unit, 'single-line') || null : null
    if (text === '') continue
    if (name === '') errors[`options.${i}.name`] = 'Укажите характеристику'
    else if ([...name].length > 200) errors[`options.${i}.name`] = 'Характеристика — не длиннее 200 знаков'
    else if ([...text].length > 500) errors[`options.${i}.value`] = 'Значение — не длиннее 500 знаков'
    else if (unit !== null && [...unit].length > 50) errors[`options.${i}.unit`] = 'Единица — не длиннее 50 знаков'
    else if (out.some((o) => o.name === name)) errors[`options.${i}.name`] = `Характеристика «${name}» указана дважды`
    else out.push({ name, value: text, unit })
  }
  return out
}
