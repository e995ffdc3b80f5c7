// The owner's input to «Товары» and the editor's variants, read as the screens send it: ids, rubles
// (a number with at most two decimals, read exactly as kopecks) and availability, each refused with
// a Russian field error (400), never a 500.
import type { Availability } from '../../data/schema'
import { HttpError } from '../../http/http-error'
import { kopecksOfRubles, MAX_PRICE_RUBLES } from '../../../src/format/money'

export const AVAILABILITIES: readonly Availability[] = ['in_stock', 'on_order', 'out_of_stock']

/** Throws 400 with the field's Russian message. */
export const invalid = (field: string, message: string): never => {
  throw new HttpError(400, message, 'validation_failed', { [field]: message })
}

/** A path's id: a positive integer of at most ten digits. */
export const idOf = (text: string, field: string): number =>
  /^[1-9]\d{0,9}$/.test(text) ? Number(text) : invalid(field, 'Неверный id')

/** A price the screen sent in rubles (at most two decimals), as kopecks; null or '' for none. */
export function money(value: unknown, field: string, label: string): number | null {
  if (value === null || value === '') return null
  const kopecks = typeof value === 'number' && value <= MAX_PRICE_RUBLES ? kopecksOfRubles(value) : null
  if (kopecks === null) return invalid(field, `${label}: сумма в рублях от 0, не более 2 знаков после запятой`)
  return kopecks
}

/** An availability the screen sent, or a field error. */
export function availabilityOf(value: unknown, field = 'availability'): Availability {
  if (!AVAILABILITIES.includes(value as Availability)) invalid(field, 'Выберите наличие')
  return value as Availability
}
