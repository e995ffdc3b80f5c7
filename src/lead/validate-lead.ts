import type { ValidateFunction } from 'ajv'
import { createAjv } from '../validation/create-ajv'
import { fieldErrorsFromAjv } from '../validation/field-errors'
import type { Lead } from './lead'
import { leadSchema } from './lead-schema'

export type LeadValidationResult =
  | { ok: true; lead: Lead }
  | { ok: false; errors: Record<string, string> }

let validator: ValidateFunction<Lead> | undefined

// Compiled on first use, not on import: the server imports this module at start-up, and the
// browser only needs the validator once the visitor submits.
function leadValidator(): ValidateFunction<Lead> {
  validator ??= createAjv().compile<Lead>(leadSchema)
  return validator
}

/**
 * Checks a lead against `leadSchema`. On failure every failing field is reported at once, one
 * Russian message per field; unknown fields appear under their own names.
 *
 * The check runs on the value as sent, exactly as the server's schema does, so the two never
 * disagree; the accepted lead then has its surrounding spaces trimmed for storage.
 *
 * @example validateLead({}).errors // { username: 'Поле обязательно', phone: …, email: …, consent: … }
 */
export function validateLead(value: unknown): LeadValidationResult {
  const validate = leadValidator()
  if (validate(value)) {
    return {
      ok: true,
      lead: {
        username: value.username.trim(),
        phone: value.phone.trim(),
        email: value.email.trim(),
        consent: true,
      },
    }
  }
  return { ok: false, errors: fieldErrorsFromAjv(validate.errors ?? []) }
}

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
