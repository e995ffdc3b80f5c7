// The owner's choices for one characteristic as a write names them (docs/decisions/042-characteristics-and-filters.md):
// checked once for «Характеристики»' PUT and for the content import's file before it writes anything.
import { HttpError } from '../../http/http-error'
import {
  FILTER_KINDS,
  MAX_CHARACTERISTIC_TITLE,
  MAX_CHARACTERISTIC_UNIT,
  type Characteristic,
  type FilterKind,
} from '../../../src/catalogue/characteristics'

/** The owner's choices for one characteristic, as «Характеристики» saves them */
export type CharacteristicChange = Pick<Characteristic, 'title' | 'shownUnit' | 'shown' | 'filter' | 'sort'>

/**
 * The owner's choices a request (or a content file: server/tools/content-characteristics.ts) says,
 * or 400 «Проверьте характеристику» with the Russian reason of every bad field.
 */
export function characteristicChangeOf(body: unknown): CharacteristicChange {
  const input = (body ?? {}) as Record<string, unknown>
  const errors: Record<string, string> = {}
  const text = (name: string, max: number, required: boolean) => {
    const value = input[name]
    // eslint-disable-next-line no-control-regex
    if (typeof value !== 'string' || value.length > max || /[\u0000-\u001f\u007f]/.test(value)) {
      errors[name] = `Ожидается строка до ${max} символов`
      return ''
    }
    if (required && value.trim() === '') errors[name] = 'Укажите название'
    return value.trim()
  }
  const title = text('title', MAX_CHARACTERISTIC_TITLE, true)
  const shownUnit = text('shownUnit', MAX_CHARACTERISTIC_UNIT, false)
  if (typeof input.shown !== 'boolean') errors.shown = 'Ожидается «да» или «нет»'
  if (!(FILTER_KINDS as readonly unknown[]).includes(input.filter))
    errors.filter = 'Выберите «Нет», «Значения» или «Диапазон»'
  const sort = input.sort
  if (typeof sort !== 'number' || !Number.isInteger(sort) || Math.abs(sort) > 1_000_000)
    errors.sort = 'Ожидается целое число'
  if (Object.keys(errors).length > 0) throw new HttpError(400, 'Проверьте характеристику', 'validation_failed', errors)
  return { title, shownUnit, shown: input.shown === true, filter: input.filter as FilterKind, sort: sort as number }
}
