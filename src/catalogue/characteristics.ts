// The catalogue's characteristics (issue 46, docs/decisions/042-characteristics-and-filters.md):
// what the owner chooses of each (the name the site shows, its unit, shown or not, a filter or not,
// its order), the number a value holds for a range filter, and a name that carries its unit
// («Вес, кг», «Габарит_Вес») offered as a name and a unit. Shared by the server and the back office.

export const FILTER_KINDS = ['none', 'values', 'range'] as const
export type FilterKind = (typeof FILTER_KINDS)[number]

export const FILTER_KIND_LABELS: Readonly<Record<FilterKind, string>> = {
  none: 'Нет',
  values: 'Значения',
  range: 'Диапазон',
}

/**
 * Where a characteristic's values are read: the products' characteristics rows, or the product's
 * brand (`vendor`: one row of the list stands for it, filtered by its values only).
 */
export const CHARACTERISTIC_SOURCES = ['property', 'vendor'] as const
export type CharacteristicSource = (typeof CHARACTERISTIC_SOURCES)[number]

/** Why a brand is no range: its values are names. */
export const VENDOR_RANGE_ERROR = 'Бренд фильтруется по значениям'

/** Lengths the stored columns take */
export const MAX_CHARACTERISTIC_TITLE = 200
export const MAX_CHARACTERISTIC_UNIT = 50

/** One characteristic as the back office lists and edits it. */
export interface Characteristic {
  readonly id: number
  /** The name products carry (from 1C, the price list or the editor): the key, never changed here */
  readonly name: string
  /** The unit products carry with it ('' for none): part of the key */
  readonly unit: string
  /** The name the site shows */
  readonly title: string
  /** The unit the site shows ('' for none) */
  readonly shownUnit: string
  /** Shown on the product page, in its JSON-LD and in the YML feed */
  readonly shown: boolean
  readonly filter: FilterKind
  /** Its place among the filters and in this list (smaller first, then by id) */
  readonly sort: number
  readonly source: CharacteristicSource
}

/** A listed characteristic: how many product rows carry it, and a split of its name, if one is offered. */
export interface ListedCharacteristic extends Characteristic {
  readonly products: number
  readonly suggestion: { readonly title: string; readonly unit: string } | null
}

/**
 * The number a value holds, for a range filter: digits with a comma or a point before the
 * decimals, spaces between thousands («1 200», «1,2», «0.75»); null for any other text (the value
 * then never matches a range).
 */
export function numericValue(value: string): number | null {
  const text = value.trim().replace(/[\s\u00a0\u202f]/g, '')
  if (!/^-?\d{1,15}([.,]\d{1,6})?$/.test(text)) return null
  const n = Number(text.replace(',', '.'))
  return Number.isFinite(n) ? n : null
}

/** «Вес» from «Вес» (kept), «Вес» from «ВЕС» (kept), «вес» from «Вес» as a later word */
function lowerIfCapitalised(word: string): string {
  return /^\p{Lu}\p{Ll}+$/u.test(word) ? word.toLowerCase() : word
}

/**
 * What the back office offers for a stored name and unit: the unit written into the name taken
 * out («Вес, кг» → «Вес», «кг»; «Мощность (Вт)» → «Мощность», «Вт»), underscores made spaces
 * («Габарит_Вес» → «Габарит вес»). Null when there is nothing to offer or it is what is shown.
 */
export function suggestCharacteristic(
  name: string,
  unit: string,
  shown: { title: string; shownUnit: string } = { title: name, shownUnit: unit },
): { title: string; unit: string } | null {
  let title = name.trim()
  let found = unit
  const comma = /^(.+?),\s*([^,\d]{1,12})$/u.exec(title)
  const brackets = /^(.+?)\s*\(([^()\d]{1,12})\)$/u.exec(title)
  const match = comma ?? brackets
  if (match && found === '') {
    title = match[1].trim()
    found = match[2].trim()
  }
  if (title.includes('_')) {
    const words = title.split(/_+/).filter(Boolean)
    title = [words[0], ...words.slice(1).map(lowerIfCapitalised)].join(' ')
  }
  if (title === '' || (title === shown.title && found === shown.shownUnit)) return null
  if (title === name && found === unit) return null
  return { title, unit: found }
}
