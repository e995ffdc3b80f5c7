import { PATHS } from '../site/paths'
import type { LeadField } from './lead'

/** What the lead form holds: text fields as the inputs report them (empty = null), the consent box. */
export type LeadFormValues = {
  username: string | null
  phone: string | null
  email: string | null
  consent: boolean
}

export const EMPTY_LEAD_FORM: LeadFormValues = { username: null, phone: null, email: null, consent: false }

/**
 * The state the server hands back with a no-JS form post it could not accept: the values as sent,
 * the Russian messages by field, and the failure text when the lead could not be stored.
 */
export type LeadFormState = {
  values: LeadFormValues
  errors: Partial<Record<LeadField, string>> & Record<string, string>
  failure: string | null
  /** The posted form's fill-time start and idempotency key, kept so a retry stays one form */
  startedAt?: number
  idempotencyKey?: string
}

/** The failure text of docs/contract.md §4, followed in the form by the site's phone as a tel: link. */
export const LEAD_FAILURE_TEXT = 'Не удалось отправить заявку. Попробуйте ещё раз или позвоните нам'

/** The answer to a form sent again with other values after its first lead was stored (422). */
export const LEAD_REUSED_FORM_TEXT =
  'Эта форма уже была отправлена с другими данными. Проверьте поля и отправьте заявку ещё раз'

/** The confirmation state of docs/contract.md §4. */
export const LEAD_SENT_TITLE = 'Заявка отправлена'
export const LEAD_SENT_TEXT = 'Спасибо за заявку! Мы свяжемся с вами в ближайшее время, чтобы уточнить детали.'

/** Title of the lead dialog and of the no-JS form page. */
export const LEAD_FORM_TITLE = 'Оставить заявку'
export const LEAD_SUBMIT_LABEL = 'Отправить'

/** Path of the no-JS form page, where the «Оставить заявку» links lead without JavaScript. */
export const LEAD_FORM_PATH = PATHS.leadForm
/** Path of the thank-you page a no-JS form post is redirected to (303). */
export const LEAD_THANKS_PATH = PATHS.leadThanks
/** The lead endpoint (docs/contract.md §3). */
export const LEAD_ENDPOINT = PATHS.leadEndpoint
/** The consent text as JSON, for the consent dialog opened from the form. */
export const LEAD_CONSENT_ENDPOINT = PATHS.leadConsent
