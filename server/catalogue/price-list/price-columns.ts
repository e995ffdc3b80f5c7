// The columns of a price list, matched by their Russian headers (case, spaces and ё/е do not
// matter), and one row's cells read into the values of a product. Any other column is a
// characteristic: «Вес, кг» is the characteristic «Вес» in «кг». Texts are cleaned by the
// editor's rule (src/validation/plain-text.ts), so an imported product can be saved in it again;
// a price is a plain decimal from 0 to MAX_PRICE (the 1C exchange's check, commerceml-checks.ts).
// «Модель» names the product a row is a variant of (price-models.ts, decision 043).
import type { Availability } from '../../data/schema'
import { HttpError } from '../../http/http-error'
import { cleanText, clampText, hasForbiddenCharacters } from '../../../src/validation/plain-text'
import { parseMoney, type Kopecks } from '../../../src/format/money'
import type { Sheet, SheetRow } from './price-list-file'

export type Field = 'article' | 'name' | 'price' | 'oldPrice' | 'availability' | 'section' | 'vendor' | 'model'

const HEADERS: Record<string, Field> = {
  артикул: 'article',
  наименование: 'name',
  название: 'name',
  цена: 'price',
  'старая цена': 'oldPrice',
  наличие: 'availability',
  раздел: 'section',
  бренд: 'vendor',
  модель: 'model',
}

export interface PropertyColumn {
  readonly index: number
  readonly name: string
  readonly unit: string | null
}

export interface Columns {
  readonly fields: Partial<Record<Field, number>>
  readonly properties: readonly PropertyColumn[]
}

/** What one row says about its product; `undefined` leaves the field as it is. */
export interface PriceRow {
  readonly number: number
  /** Empty only in a row of a model: its variant is then found by its title */
  readonly article: string
  readonly name?: string
  /** Kopecks; null: «цена по запросу» */
  readonly price?: number | null
  readonly oldPrice?: number | null
  readonly availability?: Availability
  readonly section?: string
  readonly vendor?: string | null
  /** «Модель»: the title of the product this row is a variant of */
  readonly model?: string
  /**
   * The characteristics' columns, by name and unit («Мощность, Вт» and «Мощность, л.с.» are two):
   * the value (null: the cell is empty, the characteristic in that unit goes)
   */
  readonly properties: ReadonlyMap<string, { name: string; value: string | null; unit: string | null }>
}

export interface RefusedRow {
  readonly number: number
  readonly article: string | null
  readonly reason: string
}

const LIMITS = {
  article: 100,
  name: 500,
  model: 500,
  vendor: 200,
  section: 1000,
  propertyName: 200,
  propertyValue: 1000,
  unit: 50,
}

export function normalizeHeader(text: string): string {
  return text.toLowerCase().replace(/ё/g, 'е').replace(/\s+/g, ' ').trim()
}

/** Matches the header; throws 400 when there is no «Артикул» column or a column appears twice. */
export function matchColumns(header: readonly string[]): Columns {
  const fields: Partial<Record<Field, number>> = {}
  const properties: PropertyColumn[] = []
  const seen = new Set<string>()
  header.forEach((raw, index) => {
    if (hasForbiddenCharacters(raw.replace(/[\t\r\n]/g, ' '), 'single-line')) {
      refuse(`Заголовок столбца ${index + 1} содержит недопустимые символы: исправьте первую строку файла`)
    }
    const key = normalizeHeader(raw)
    if (key === '') return
    if (seen.has(key)) refuse(`Столбец «${raw}» встречается дважды`)
    seen.add(key)
    const field = HEADERS[key]
    if (field !== undefined) {
      if (fields[field] !== undefined) refuse(`Столбец «${raw}» повторяет другой столбец`)
      fields[field] = index
      return
    }
    const flat = cleanText(raw, 'single-line')
    const match = /^(.*?)\s*[,(]\s*([^,()]{1,50}?)\s*\)?$/.exec(flat)
    const name = clampText((match ? match[1] : flat).trim(), LIMITS.propertyName)
    properties.push({ index, name, unit: match ? match[2] : null })
  })
  if (fields.article === undefined) refuse('В файле нет столбца «Артикул»: по нему товары находятся на сайте')
  return { fields, properties }
}

function refuse(message: string): never {
  throw new HttpError(400, message, 'invalid_price_list', { file: message })
}

class RowError extends Error {}

/**
 * A price as Russian Excel writes it: «1 234,50», «1234.5», «1 299,90 руб.», «1 234 ₽»; empty or
 * «по запросу» is null. Kept exactly in kopecks (more decimals round half up to the kopeck).
 * Refused: what is not a plain decimal (`0x10`, `1e308`, `Infinity`), below 0, past MAX_PRICE.
 */
export function parsePrice(text: string, label: string): Kopecks | null {
  const compact = text.replace(/[\s\u00a0\u202f]/g, '').toLowerCase()
  if (compact === '' || compact === 'позапросу') return null
  const read = parseMoney(text, { round: true })
  if (read.ok) return read.kopecks
  const shown = text.length > 40 ? `${text.slice(0, 40)}…` : text
  throw new RowError(`${label}: «${shown}» — ${read.reason}`)
}

const AVAILABILITY: Record<string, Availability> = {
  'в наличии': 'in_stock',
  есть: 'in_stock',
  да: 'in_stock',
  '+': 'in_stock',
  'под заказ': 'on_order',
  заказ: 'on_order',
  'нет в наличии': 'out_of_stock',
  нет: 'out_of_stock',
  '-': 'out_of_stock',
}

/** «В наличии», «Под заказ», «Нет в наличии» (and their short forms), or a stock count from 1С. */
export function parseAvailability(text: string): Availability | undefined {
  const key = normalizeHeader(text)
  if (key === '') return undefined
  if (/^\d+([.,]\d+)?$/.test(key)) return Number(key.replace(',', '.')) > 0 ? 'in_stock' : 'out_of_stock'
  const found = AVAILABILITY[key]
  if (!found) throw new RowError(`Наличие: «${text}» — ожидается «В наличии», «Под заказ» или «Нет в наличии»`)
  return found
}

/** A cell's text cleaned by the editor's rule (line breaks become spaces); too long is refused. */
function bounded(text: string, max: number, label: string): string {
  const clean = cleanText(text, 'single-line')
  if (clampText(clean, max) !== clean) throw new RowError(`${label}: длиннее ${max} символов`)
  return clean
}

/** One row read through the columns: the values, or the reason it is refused. */
export function readRow(columns: Columns, row: SheetRow): PriceRow | RefusedRow {
  const cell = (index: number | undefined) => (index === undefined ? undefined : (row.cells[index] ?? ''))
  const text = (index: number | undefined, max: number, label: string) => {
    const value = cell(index)
    return value === undefined ? undefined : bounded(value, max, label)
  }
  const raw = cell(columns.fields.article) ?? ''
  try {
    const article = bounded(raw, LIMITS.article, 'Артикул')
    const model = text(columns.fields.model, LIMITS.model, 'Модель')
    if (article === '' && !model) throw new RowError('Не указан артикул')
    const name = text(columns.fields.name, LIMITS.name, 'Наименование')
    const price = cell(columns.fields.price)
    const oldPrice = cell(columns.fields.oldPrice)
    const availability = cell(columns.fields.availability)
    const section = text(columns.fields.section, LIMITS.section, 'Раздел')
    const vendor = text(columns.fields.vendor, LIMITS.vendor, 'Бренд')
    const properties = new Map<string, { name: string; value: string | null; unit: string | null }>()
    for (const column of columns.properties) {
      const value = bounded(cell(column.index) ?? '', LIMITS.propertyValue, column.name)
      properties.set(`${column.name}\u0000${column.unit ?? ''}`, {
        name: column.name,
        value: value === '' ? null : value,
        unit: column.unit,
      })
    }
    return {
      number: row.number,
      article,
      ...(name ? { name } : {}),
      ...(price !== undefined ? { price: parsePrice(price, 'Цена') } : {}),
      ...(oldPrice !== undefined ? { oldPrice: parsePrice(oldPrice, 'Старая цена') } : {}),
      ...(availability ? { availability: parseAvailability(availability) } : {}),
      ...(section ? { section } : {}),
      ...(vendor !== undefined ? { vendor: vendor || null } : {}),
      ...(model ? { model } : {}),
      properties,
    }
  } catch (error) {
    if (!(error instanceof RowError)) throw error
    return {
      number: row.number,
      article: clampText(cleanText(raw, 'single-line'), LIMITS.article) || null,
      reason: error.message,
    }
  }
}

export function isRefused(row: PriceRow | RefusedRow): row is RefusedRow {
  return 'reason' in row
}

/** The header as read, for the preview: which column became what. */
export function describeColumns(sheet: Sheet, columns: Columns): { header: string; field: Field | 'property' }[] {
  const byIndex = new Map<number, Field>(Object.entries(columns.fields).map(([field, i]) => [i, field as Field]))
  return sheet.header
    .map((header, i) => ({ header, field: byIndex.get(i) ?? ('property' as const) }))
    .filter((c) => c.header !== '')
}
