// Row types of the tables that hold personal data: the leads and their deliveries, the cookie
// choices and the privacy feature's own tables (docs/decisions/027-personal-data.md). Part of
// schema.ts, which re-exports them; kept apart so that file stays readable.
import type { ColumnType, Generated } from 'kysely'

/** 0 or 1: a boolean that reads the same in SQLite and PostgreSQL */
type Flag = number

export interface FeedbackTable {
  id: Generated<number>
  username: string
  email: string
  /** The phone exactly as the visitor typed it */
  phone: string
  createdAt: ColumnType<string, string, never>
  /** The phone in E.164 (+79991234567) when it is a Russian number, else null */
  phoneE164: string | null
  /** Client-chosen key of one form instance: a repeat returns this lead (unique) */
  idempotencyKey: string | null
  /** SHA-256 (hex) of the request the key came with: the key with another request is refused */
  requestHash: string | null
  /** The consent record (152-FZ): when, from where, and which consent text version */
  consentAt: string | null
  consentIp: string | null
  consentUserAgent: string | null
  consentVersion: string | null
  /** 1 when the honeypot was filled or the form was sent too fast: kept for review, never delivered */
  spam: ColumnType<Flag, Flag | undefined, Flag>
  /** The page the form was sent from: path and query, as the browser had it */
  sourceUrl: string | null
  /** The product whose page the form was sent from */
  productId: number | null
  productTitle: string | null
  /** JSON object of the visit's utm_* tags, yclid and gclid (from its landing URL) */
  utm: string | null
  /** Where the owner is with it: 'new' | 'in_progress' | 'closed' */
  status: ColumnType<LeadStatus, LeadStatus | undefined, LeadStatus>
  /** Name, e-mail and phone folded to lower case, and the phone's digits: what the inbox searches */
  searchText: string | null
  /** ISO 8601 UTC: when its personal data was replaced (retention or a person's request), else null */
  anonymizedAt: string | null
  /** ISO 8601 UTC: when 1C confirmed it took the lead as an order (type=sale), else null */
  exportedAt: string | null
  /** The order's status as 1C last sent it back (`type=sale&mode=file`): «отгружен 28.11.2026», «отменён» */
  oneCStatus: string | null
  /** ISO 8601 UTC: when 1C sent that status */
  oneCStatusAt: string | null
  /** Whole kopecks: the sum of the lead's lines when every line has a price, else null (migration 029) */
  total: number | null
  /** The manager's note (LEAD_NOTE_MAX characters); never sent to a delivery channel */
  note: string | null
}

/** What a lead asked for, one row per line, copied when the lead was stored (never updated) */
export interface LeadLineTable {
  id: Generated<number>
  feedbackId: number
  position: number
  productId: number
  title: string
  article: string | null
  /** Whole kopecks at the moment of sending; null: «по запросу» */
  price: number | null
  quantity: number
  /** price × quantity, null when the price is */
  sum: number | null
  /** The variant asked for and its title then (migration 032); null: the product itself */
  variantId: ColumnType<number | null, number | null | undefined, number | null>
  variantTitle: ColumnType<string | null, string | null | undefined, string | null>
}

export type LeadStatus = 'new' | 'in_progress' | 'closed'
export type DeliveryChannel = 'email' | 'telegram' | 'webhook'
export type DeliveryStatus = 'pending' | 'sent' | 'dead'

/** The outbox: one row per lead and configured channel */
export interface LeadDeliveryTable {
  id: Generated<number>
  feedbackId: number
  channel: DeliveryChannel
  status: ColumnType<DeliveryStatus, DeliveryStatus | undefined, DeliveryStatus>
  attempts: ColumnType<number, number | undefined, number>
  /** ISO 8601 UTC: not claimed before then */
  nextAttemptAt: string
  /** ISO 8601 UTC: a failure after then is final (the row turns dead) */
  giveUpAt: string
  /** ISO 8601 UTC: the claimer owns the row until then */
  leaseUntil: string | null
  lastError: string | null
  sentAt: string | null
  createdAt: ColumnType<string, string, never>
}

/** A visitor's cookie choice (server/privacy/cookie-choices.ts) */
export interface CookieChoiceTable {
  id: Generated<number>
  createdAt: string
  /** HMAC of the client address with the site's own key: never the address */
  ipHash: string
  userAgent: string | null
  /** Version (hash) of the cookie notice's text */
  textVersion: string
  /** 1 allowed, 0 refused */
  analytics: Flag
}

/** Who did what with personal data, and when (the owner reads it in the back office) */
export interface PrivacyAuditTable {
  id: Generated<number>
  at: string
  actor: string
  action: string
  /** JSON: counts and ids, never the personal data itself */
  detail: string
}

/** Small settings of the privacy feature: the operator's details, the address-hashing key */
export interface PrivacySettingTable {
  key: string
  value: string
}

/** A periodic job that one process of many runs at a time (server/privacy/retention.ts) */
export interface PrivacyJobTable {
  name: string
  holder: string | null
  leaseUntil: string | null
  lastRunAt: string | null
  lastResult: string | null
  nextRunAt: string
}
