import { NOT_BLANK_PATTERN } from '../validation/patterns'
import { LEAD_LIMITS } from './lead'
import { leadSourceProperties, type LeadSource } from './lead-source'
import { REQUEST_LIST_LIMITS, type RequestLine } from './request-list'
import type { Lead, LeadField, LeadTextField } from './lead'

/** Every field of a lead, in form order. */
export const LEAD_FIELD_NAMES = ['username', 'phone', 'email', 'consent'] as const satisfies readonly LeadField[]

/** The lead's text fields, in form order. */
export const LEAD_TEXT_FIELD_NAMES = ['username', 'phone', 'email'] as const satisfies readonly LeadTextField[]

/**
 * The one schema of a lead, compiled by both the browser form and `POST /api/feedback` through
 * `createAjv()` (its custom `email` format and `verbose` errors are part of the contract).
 *
 * Empty values count as missing: `pattern` rejects '' and blank strings and `type` rejects null,
 * and the message table reports both as «Поле обязательно». Every stored text is one line without
 * control characters (`text`, src/validation/plain-text.ts). The phone is the `phone` format of
 * createAjv: a number someone can call back (10 to 15 digits, a Russian one exactly 11), foreign
 * numbers included.
 */
export const leadSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['username', 'phone', 'email', 'consent'],
  properties: {
    username: { type: 'string', pattern: NOT_BLANK_PATTERN, maxLength: LEAD_LIMITS.username, text: 'single-line' },
    phone: {
      type: 'string',
      pattern: NOT_BLANK_PATTERN,
      maxLength: LEAD_LIMITS.phone,
      format: 'phone',
      text: 'single-line',
    },
    email: {
      type: 'string',
      pattern: NOT_BLANK_PATTERN,
      maxLength: LEAD_LIMITS.email,
      format: 'email',
      text: 'single-line',
    },
    consent: { type: 'boolean', const: true },
  },
} as const

/** Name of the honeypot field: hidden from people, so only a bot fills it in. */
export const HONEYPOT_FIELD = 'website'

/** Name of the fill-time field: when the form was first shown, in ms since the epoch. */
export const FORM_STARTED_AT_FIELD = 'formStartedAt'

/**
 * Name of the idempotency field: the key of one form instance, for clients (the no-JS form) that
 * cannot send the `Idempotency-Key` header. Printable ASCII, as the header allows.
 */
export const IDEMPOTENCY_KEY_FIELD = 'idempotencyKey'

/**
 * Name of the lines field: what the lead asks for, product ids and quantities only (the request
 * list, or the one product of a product page's «Оставить заявку»). Prices are never taken from
 * the client: the server copies them from the catalogue (docs/decisions/041-request-list.md).
 */
export const LINES_FIELD = 'lines'

/** JSON Schema of the lines: at most 100, each a product id and a quantity from 1 to 9,999. */
const linesProperty = {
  type: 'array',
  maxItems: REQUEST_LIST_LIMITS.lines,
  items: {
    type: 'object',
    additionalProperties: false,
    required: ['productId', 'quantity'],
    properties: {
      productId: { type: 'integer', minimum: 1, maximum: 2_147_483_647 },
      quantity: { type: 'integer', minimum: 1, maximum: REQUEST_LIST_LIMITS.quantity },
      // The product's variant (docs/decisions/043-variants.md)
      variantId: { type: 'integer', minimum: 1, maximum: 2_147_483_647 },
    },
  },
} as const

/** The rule for an idempotency key, in the header or in the field. */
export const IDEMPOTENCY_KEY_PATTERN = '^[!-~]{1,128}$'

/**
 * What `POST /api/feedback` accepts: the lead plus optional transport fields (the honeypot, the
 * fill-time token and the idempotency key) that are never stored as part of the lead.
 *
 * The honeypot accepts any short string on purpose. A filled one must not fail validation with a
 * 400 naming the field, because that teaches the bot what to leave empty; the route should answer
 * with a fake success and keep the submission as spam.
 */
export const leadRequestSchema = {
  ...leadSchema,
  properties: {
    ...leadSchema.properties,
    [HONEYPOT_FIELD]: { type: 'string', maxLength: 1000 },
    [FORM_STARTED_AT_FIELD]: { type: 'number', minimum: 0 },
    [IDEMPOTENCY_KEY_FIELD]: { type: 'string', pattern: IDEMPOTENCY_KEY_PATTERN },
    [LINES_FIELD]: linesProperty,
    ...leadSourceProperties,
  },
} as const

/** The transport envelope of a lead as `leadRequestSchema` accepts it. */
export type LeadRequest = Lead &
  LeadSource & {
    website?: string
    formStartedAt?: number
    idempotencyKey?: string
    lines?: RequestLine[]
  }
