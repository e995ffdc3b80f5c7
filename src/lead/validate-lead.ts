import type { ValidateFunction } from 'ajv'
import { createAjv } from '../validation/create-ajv'
import { fieldErrorsFromAjv } from '../validation/field-errors'
import type { Lead } from './lead'
import { leadSchema } from './lead-schema'

type LeadValidationResult = { ok: true; lead: Lead } | { ok: false; errors: Record<string, string> }

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
