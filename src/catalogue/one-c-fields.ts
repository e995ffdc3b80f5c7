// The fields of a product the 1C exchange writes (docs/decisions/044-onec-owned-fields.md): one list
// for «Настройки» (the owner's choice, per field, whether 1C keeps overwriting it), the exchange
// (what an update writes), «Товары» and the editor (the mark «Из 1С» and the warning before an edit
// 1C will overwrite is saved).

/** price: the price and the old price; stock: the availability 1C's quantity sets. */
export const ONE_C_FIELDS = ['price', 'stock', 'title', 'description', 'images'] as const
export type OneCField = (typeof ONE_C_FIELDS)[number]

/** The settings' key of each field: 'true' or absent, 1C overwrites it; 'false', only a new product's. */
export const ONE_C_FIELD_KEYS = {
  price: 'exchange.overwrite.price',
  stock: 'exchange.overwrite.stock',
  title: 'exchange.overwrite.title',
  description: 'exchange.overwrite.description',
  images: 'exchange.overwrite.images',
} as const satisfies Record<OneCField, string>

/** As «Настройки» and the mark name them */
export const ONE_C_FIELD_LABELS: Readonly<Record<OneCField, string>> = {
  price: 'Цена',
  stock: 'Остаток/наличие',
  title: 'Название',
  description: 'Описание',
  images: 'Картинки',
}

/** As the warning names them: «<Цену> этого товара перезапишет 1С…» */
const ACCUSATIVE: Readonly<Record<OneCField, string>> = {
  price: 'цену',
  stock: 'наличие',
  title: 'название',
  description: 'описание',
  images: 'картинки',
}

/** Reads an ordered list of fields from text («price,stock»); null when a name is not one of them. */
export function oneCFieldsOf(text: string): OneCField[] | null {
  const names = text
    .split(/[,\s]+/)
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== '' && name !== 'none')
  if (names.some((name) => !(ONE_C_FIELDS as readonly string[]).includes(name))) return null
  return ONE_C_FIELDS.filter((field) => names.includes(field))
}

/** «цену и наличие», «название, описание и картинки» */
function listed(fields: readonly OneCField[]): string {
  const words = fields.map((field) => ACCUSATIVE[field])
  return words.length < 2 ? words.join('') : `${words.slice(0, -1).join(', ')} и ${words.at(-1)}`
}

/**
 * The question asked before a save that changes fields 1C will overwrite, or null when it changes
 * none of them: «Цену этого товара перезапишет 1С при следующем обмене. Сохранить?»
 */
export function overwriteWarning(
  changed: readonly OneCField[],
  overwritten: readonly OneCField[] | null,
  /** Whose fields: «этого варианта» for a product's variant (decision 043) */
  of = 'этого товара',
): string | null {
  const fields = ONE_C_FIELDS.filter((field) => changed.includes(field) && overwritten?.includes(field))
  if (fields.length === 0) return null
  const text = listed(fields)
  return `${text[0].toUpperCase()}${text.slice(1)} ${of} перезапишет 1С при следующем обмене. Сохранить?`
}

/** The mark's line: «1С обновляет: цена, остаток/наличие» or that it updates none of the five. */
export function overwrittenText(overwritten: readonly OneCField[]): string {
  if (overwritten.length === 0) return '1С не перезаписывает цену, наличие, название, описание и картинки'
  return `1С обновляет при каждом обмене: ${overwritten.map((field) => ONE_C_FIELD_LABELS[field].toLowerCase()).join(', ')}`
}
