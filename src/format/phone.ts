// Russian phone numbers in E.164: shared by the lead intake, the header's tel: links and JSON-LD.
// No dependencies, so the layout can use it without pulling in the form's validator.

// Separators people put into phone numbers; anything else (letters, extension marks) is not
// a plain Russian number.
const PHONE_TEXT = /^\+?[\d\s().-]+$/

/**
 * The E.164 form (`+7XXXXXXXXXX`) of a Russian phone number, or null when `text` is not one.
 * Accepts 11 digits starting with 7 or 8, 10 digits starting with 9 (a mobile number without
 * the trunk prefix), or `+7` and 10 digits, with any spaces, brackets, dots and hyphens.
 *
 * The lead keeps the phone as typed (the spec only limits its length); this is for display,
 * de-duplication and delivery.
 *
 * @example normalizeRuPhone('8 999 123-45-67') // '+79991234567'
 */
export function normalizeRuPhone(text: string): string | null {
  const trimmed = text.trim()
  if (!PHONE_TEXT.test(trimmed)) return null
  const digits = trimmed.replace(/\D/g, '')
  if (trimmed.startsWith('+')) {
    return digits.length === 11 && digits.startsWith('7') ? `+${digits}` : null
  }
  if (digits.length === 11 && (digits.startsWith('7') || digits.startsWith('8'))) return `+7${digits.slice(1)}`
  if (digits.length === 10 && digits.startsWith('9')) return `+7${digits}`
  return null
}

/**
 * The href target of a `tel:` link: E.164 for a Russian number (10 digits without a prefix
 * count as one: it is the business's own number), otherwise the digits as written, + kept.
 *
 * @example telHref('+7 (495) 123-45-67') // '+74951234567'
 */
export function telHref(tel: string): string {
  const e164 = normalizeRuPhone(tel)
  if (e164) return e164
  const digits = tel.replace(/\D/g, '')
  if (tel.trim().startsWith('+')) return `+${digits}`
  // A business number written without the country code: «(495) 123-45-67».
  return digits.length === 10 ? `+7${digits}` : digits
}

/**
 * The whole `tel:` link of a phone number, for every place that links one (the header, the
 * form's failure text, the back office, the e-mail): a bare number as an href is a relative URL.
 *
 * @example telLink('8 (800) 555-35-35') // 'tel:+78005553535'
 */
export function telLink(tel: string): string {
  return `tel:${telHref(tel)}`
}

/** The digits a phone number may have: 10 to 15 (E.164), a Russian one exactly 11. */
const PHONE_DIGITS = { min: 10, max: 15, russian: 11 } as const

/**
 * Whether a typed phone number can be called back: only digits, spaces, brackets, dots and
 * hyphens after an optional +; 10 to 15 digits; and exactly 11 for a Russian number, which is
 * one starting with +7, or with 7 or a habitual 8 when written without the +.
 *
 * @example isCallablePhone('+7 (999) 123-45-67') // true
 * @example isCallablePhone('+7 (999) 123-45')    // false: a Russian number needs 11 digits
 * @example isCallablePhone('+49 30 1234567')     // true
 */
export function isCallablePhone(text: string): boolean {
  const trimmed = text.trim()
  if (!PHONE_TEXT.test(trimmed)) return false
  const digits = trimmed.replace(/\D/g, '')
  const russian = trimmed.startsWith('+') ? digits.startsWith('7') : digits.startsWith('7') || digits.startsWith('8')
  if (russian) return digits.length === PHONE_DIGITS.russian
  return digits.length >= PHONE_DIGITS.min && digits.length <= PHONE_DIGITS.max
}
