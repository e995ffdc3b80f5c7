import { format, generatePattern } from '@react-input/mask'
import type { Track } from '@react-input/mask'

/** The Russian phone mask (CONTRACT §4); the «+7» is fixed text, not something the visitor types. */
export const PHONE_MASK = '+7 (___) ___-__-__'

export const PHONE_REPLACEMENT = { _: /\d/ }

const maskOptions = { mask: PHONE_MASK, replacement: PHONE_REPLACEMENT }
const partialMasked = new RegExp(generatePattern('partial', maskOptions))

const COUNTRY_CODE = /^\+\s*7/

/**
 * How many digits the visitor has entered before `position` of a masked value. The «7» of the
 * fixed «+7» is mask text and does not count.
 */
export function inputDigitsBefore(masked: string, position: number): number {
  let count = 0
  const end = Math.min(position, masked.length, PHONE_MASK.length)
  for (let i = 0; i < end; i++) {
    if (PHONE_MASK[i] === '_' && masked[i] >= '0' && masked[i] <= '9') count++
  }
  return count
}

/**
 * Drops the country prefix from a pasted or autofilled number: a leading «+7», or the first digit
 * of 11 digits that start with 8 or 7 («8 999 123-45-67», «79991234567»). Anything else is
 * returned as it is.
 *
 * @react-input/mask only keeps characters the visitor supplied and never matches them against
 * fixed mask text, so without this «+79991234567» would fill the ten slots with «7999123456»
 * and show «+7 (799) 912-34-56».
 */
export function stripRuCountryPrefix(data: string): string {
  const trimmed = data.trim()
  if (COUNTRY_CODE.test(trimmed)) return trimmed.replace(COUNTRY_CODE, '')
  const digits = data.replace(/\D/g, '')
  if (digits.length === 11 && (digits.startsWith('8') || digits.startsWith('7'))) return digits.slice(1)
  return data
}

/**
 * The mask's `track` hook. It strips the country prefix from text inserted where no digit has
 * been entered yet, which covers paste, browser autofill (an input event without inputType,
 * which the library treats as replacing the whole value) and Playwright's fill(). A single
 * typed «8» or «7» is kept: Russian codes such as 812 or 843 start with 8, and the visible
 * «+7» already tells the visitor not to type the country code.
 */
export const trackRuPhone: Track = ({ inputType, value, data, selectionStart }) => {
  if (inputType !== 'insert') return true
  if (inputDigitsBefore(value, selectionStart) > 0) return data
  return stripRuCountryPrefix(data)
}

/**
 * Drops a typed trunk prefix: no Russian number starts with 89 or 79 after the country code,
 * so a visitor who types «8 999…» or «7 999…» out of habit meant the prefix, not a digit.
 * Codes that really start with 8 or 7 (812, 843, 700…) are never followed by 9 and stay.
 *
 * @example dropTypedTrunkPrefix('+7 (89') // '+7 (9'
 */
export function dropTypedTrunkPrefix(masked: string): string {
  const digits = masked.replace(COUNTRY_CODE, '').replace(/\D/g, '')
  if (!/^[78]9/.test(digits)) return masked
  return format(digits.slice(1), maskOptions)
}

/**
 * The masked text for a phone value. A value already in mask form (what PhoneInput reports) is
 * kept as is, so a controlled input never fights the mask; anything else, such as a stored
 * «+79991234567», is formatted as if it were pasted.
 *
 * @example toMaskedRuPhone('89991234567') // '+7 (999) 123-45-67'
 */
export function toMaskedRuPhone(value: string | null | undefined): string {
  if (!value) return ''
  if (partialMasked.test(value)) return value
  return format(stripRuCountryPrefix(value), maskOptions)
}
