import type { ErrorObject } from 'ajv'
import { fieldErrorsFromAjv } from '../validation/field-errors'
import type { Lead } from './lead'
import { validateLead as leadValidator } from './lead-validators.generated'

type LeadValidationResult = { ok: true; lead: Lead } | { ok: false; errors: Record<string, string> }

/** The generated validator of `leadSchema` (no schema compiling at run time): a type guard with errors. */
const validate = leadValidator as ((value: unknown) => value is Lead) & { errors?: ErrorObject[] | null }

/**
 * Checks a lead against `leadSchema`, with the validator generated from it ahead of time. On
 * failure every failing field is reported at once, one Russian message per field; unknown fields
 * appear under their own names.
 *
 * The check runs on the value as sent, exactly as the server's schema does, so the two never
 * disagree; the accepted lead then has its surrounding spaces trimmed for storage.
 *
 * @example validateLead({}).errors // { username: 'Поле обязательно', phone: …, email: …, consent: … }
 */
export function validateLead(value: unknown): LeadValidationResult {
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
