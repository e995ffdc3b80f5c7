import { format, generatePattern } from '@react-input/mask'

/** The Russian phone mask (docs/contract.md §4); the «+7» is fixed text, not something the visitor types. */
export const PHONE_MASK = '+7 (___) ___-__-__'

const PHONE_REPLACEMENT = { _: /\d/ }

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

/** Where the caret stands after `digits` entered digits of the masked value. */
function caretAfterDigits(digits: number): number {
  if (digits <= 0) return PHONE_MASK.indexOf('_')
  let seen = 0
  for (let i = 0; i < PHONE_MASK.length; i++) {
    if (PHONE_MASK[i] === '_' && ++seen === digits) return i + 1
  }
  return PHONE_MASK.length
}

const SLOTS = PHONE_MASK.split('_').length - 1

/** The digits the visitor has entered in a masked value (the fixed «+7» excluded). */
function enteredDigits(masked: string): string {
  return masked.replace(COUNTRY_CODE, '').replace(/\D/g, '')
}

interface PhoneEdit {
  readonly value: string
  readonly caret: number
}

/**
 * The masked value and caret after one edit of the field, computed from the value and selection
 * *before* the edit (a `beforeinput` event has both), synchronously, so no keystroke can race
 * another. Text inserted where no digit has been entered yet (paste, autofill, a whole number)
 * loses its country prefix; a habitual trunk 8 or 7 typed before a mobile number is dropped.
 * Returns null for edits it does not model (undo, redo): the caller reformats after them.
 *
 * @example editRuPhone('+7 (81', 6, 6, 'insertText', '2') // { value: '+7 (812', caret: 7 }
 */
export function editRuPhone(
  value: string,
  selectionStart: number,
  selectionEnd: number,
  inputType: string,
  data: string,
): PhoneEdit | null {
  const digits = enteredDigits(value)
  const from = inputDigitsBefore(value, selectionStart)
  const to = Math.max(from, inputDigitsBefore(value, selectionEnd))
  let next: string
  let caret: number
  if (inputType.startsWith('insert')) {
    const inserted = (from === 0 ? stripRuCountryPrefix(data) : data).replace(/\D/g, '')
    next = digits.slice(0, from) + inserted + digits.slice(to)
    caret = from + inserted.length
  } else if (inputType.startsWith('delete')) {
    const backward = inputType.includes('Backward')
    let [cutFrom, cutTo] = [from, to]
    if (from === to) {
      if (inputType === 'deleteContentBackward') cutFrom = Math.max(0, from - 1)
      else if (inputType === 'deleteContentForward') cutTo = from + 1
      else if (backward) cutFrom = 0
      else cutTo = digits.length
    }
    next = digits.slice(0, cutFrom) + digits.slice(cutTo)
    caret = cutFrom
  } else {
    return null
  }
  if (/^[78]9/.test(next) && caret > 0 && inputType.startsWith('insert')) {
    next = next.slice(1)
    caret -= 1
  }
  next = next.slice(0, SLOTS)
  return { value: format(next, maskOptions), caret: caretAfterDigits(Math.min(caret, next.length)) }
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
