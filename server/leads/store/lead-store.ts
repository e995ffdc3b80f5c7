// The leads repository (server/leads/store/) is the only code that queries `feedback`, the lead
// with its consent record; the delivery rows are the outbox's (server/leads/store/delivery-outbox.ts).
// This file stores a lead: one INSERT and one outbox row per delivery channel, inside an immediate
// write transaction, so the lead, its consent record, its spam mark, its idempotency key, its lines
// (copied from the catalogue in that transaction: ./lead-lines.ts) and its deliveries are committed
// together or not at all.
import { createHash } from 'node:crypto'
import type { Db } from '../../data/db'
import { now } from '../../data/db'
import { writeTransaction } from '../../data/write-transaction'
import { loadPublishedText } from '../../content/structure-store'
import type { Lead } from '../../../src/lead/lead'
import type { VisitTags } from '../../../src/lead/lead-source'
import { normalizeRuPhone } from '../../../src/format/phone'
import { clampText, oneLine } from '../../../src/validation/plain-text'
import type { DeliveryChannel } from '../../data/schema'
import { enqueueDeliveries } from './delivery-outbox'
import { leadSearchText } from './lead-search'
import { insertLines, productsNow, snapshotLines, totalOf, variantsNow, type RequestedLine } from './lead-lines'

/** Who consented, from where and to which text (152-FZ; docs/decisions/007-lead-intake.md). */
export interface ConsentRecord {
  readonly ip: string
  readonly userAgent: string | null
  readonly version: string
}

/** Where the lead was sent from (every channel shows it: docs/decisions/009-lead-delivery.md). */
export interface LeadOrigin {
  readonly sourceUrl: string | null
  readonly product: { readonly id: number; readonly title: string } | null
  readonly utm: VisitTags | null
}

/** A lead as it is stored or journaled, without the channels it goes to. */
export interface LeadRecord {
  /** When the lead was accepted, if earlier than now (a lead coming back from the journal) */
  readonly at?: string
  readonly lead: Lead
  readonly consent: ConsentRecord
  readonly spam: boolean
  readonly idempotencyKey: string | null
  /** Hash of the request the key came with: the key of another request is refused, not repeated */
  readonly requestHash?: string | null
  readonly origin: LeadOrigin
  /** What the lead asks for (product ids and quantities); copied from the catalogue when stored */
  readonly lines?: readonly RequestedLine[]
}

export interface NewLead extends LeadRecord {
  /** The channels to queue a delivery for; a spam lead gets none */
  readonly channels: readonly DeliveryChannel[]
}

export type StoreOutcome =
  | { readonly status: 'created' | 'repeated'; readonly id: number; readonly createdAt: string }
  /** The idempotency key is a stored lead's, sent with another request: nothing stored */
  | { readonly status: 'conflict' }

/** The widths of the columns (PostgreSQL's varchar counts characters, as clampText does). */
const WIDTHS = {
  username: 190,
  email: 400,
  phone: 400,
  idempotencyKey: 128,
  consentIp: 64,
  consentUserAgent: 1000,
  consentVersion: 128,
  sourceUrl: 2000,
  productTitle: 500,
  visitTag: 500,
} as const

const clampOrNull = (text: string | null, max: number) => (text === null ? null : clampText(text, max))

/**
 * The record cut to what its columns hold: the values a visitor typed were checked already, but
 * a header (the user agent), the page address and records of older journals were not.
 */
export function capLeadRecord<T extends LeadRecord>(record: T): T {
  const { lead, consent, origin } = record
  const utm = origin.utm
    ? Object.fromEntries(Object.entries(origin.utm).map(([key, value]) => [key, clampText(value, WIDTHS.visitTag)]))
    : null
  return {
    ...record,
    lead: {
      ...lead,
      username: clampText(lead.username, WIDTHS.username),
      email: clampText(lead.email, WIDTHS.email),
      phone: clampText(lead.phone, WIDTHS.phone),
    },
    idempotencyKey: clampOrNull(record.idempotencyKey, WIDTHS.idempotencyKey),
    consent: {
      ip: clampText(consent.ip, WIDTHS.consentIp),
      userAgent: consent.userAgent === null ? null : clampText(oneLine(consent.userAgent), WIDTHS.consentUserAgent),
      version: clampText(consent.version, WIDTHS.consentVersion),
    },
    origin: {
      sourceUrl: clampOrNull(origin.sourceUrl, WIDTHS.sourceUrl),
      product: origin.product && { ...origin.product, title: clampText(origin.product.title, WIDTHS.productTitle) },
      utm,
    },
  }
}

/**
 * Stores a lead and resolves only after COMMIT (SQLite runs with synchronous=FULL), so an answer
 * of 201 means the lead survives a crash. A repeated idempotency key returns the first lead when
 * it came with the same request, and a conflict when not. Throws when the storage fails; nothing
 * is half-written then.
 */
export async function storeLead(db: Db, input: NewLead): Promise<StoreOutcome> {
  const { lead, consent, spam, idempotencyKey, origin } = capLeadRecord(input)
  const requestHash = input.requestHash ?? null
  try {
    return await writeTransaction(db, async (trx): Promise<StoreOutcome> => {
      if (idempotencyKey !== null) {
        const first = await findByKey(trx, idempotencyKey)
        if (first) return repeatOf(first, requestHash)
      }
      const createdAt = input.at ?? now()
      const phoneE164 = normalizeRuPhone(lead.phone)
      const requested = input.lines ?? []
      const lines = snapshotLines(
        requested,
        await productsNow(
          trx,
          requested.map((line) => line.productId),
        ),
        await variantsNow(
          trx,
          requested.flatMap((line) => line.variantId ?? []),
        ),
      )
      const row = await trx
        .insertInto('feedback')
        .values({
          username: lead.username,
          phone: lead.phone,
          email: lead.email,
          phoneE164,
          createdAt,
          idempotencyKey,
          requestHash,
          consentAt: createdAt,
          consentIp: consent.ip,
          consentUserAgent: consent.userAgent,
          consentVersion: consent.version,
          spam: spam ? 1 : 0,
          sourceUrl: origin.sourceUrl,
          productId: origin.product?.id ?? null,
          productTitle: origin.product?.title ?? null,
          utm: origin.utm ? JSON.stringify(origin.utm) : null,
          searchText: leadSearchText({ ...lead, phoneE164 }),
          total: totalOf(lines),
        })
        .returning(['id', 'createdAt'])
        .executeTakeFirstOrThrow()
      await insertLines(trx, row.id, lines)
      // Spam is kept for review but never delivered.
      if (!spam) await enqueueDeliveries(trx, row.id, input.channels, new Date(createdAt))
      return { status: 'created', id: row.id, createdAt: row.createdAt }
    })
  } catch (error) {
    // PostgreSQL: two requests with one key raced past the lookup; the loser reads the winner.
    if (idempotencyKey !== null) {
      const first = await findByKey(db, idempotencyKey).catch(() => undefined)
      if (first) return repeatOf(first, requestHash)
    }
    throw error
  }
}

type KeyedLead = { id: number; createdAt: string; requestHash: string | null }

async function findByKey(db: Pick<Db, 'selectFrom'>, key: string): Promise<KeyedLead | undefined> {
  return db
    .selectFrom('feedback')
    .select(['id', 'createdAt', 'requestHash'])
    .where('idempotencyKey', '=', key)
    .executeTakeFirst()
}

/** The first lead again, unless the key came with another request (a lead stored before hashes: a repeat). */
function repeatOf(first: KeyedLead, requestHash: string | null): StoreOutcome {
  if (first.requestHash !== null && requestHash !== null && first.requestHash !== requestHash) {
    return { status: 'conflict' }
  }
  return { status: 'repeated', id: first.id, createdAt: first.createdAt }
}

/** The consent text a visitor agreed to, as the consent dialog shows it. */
interface ConsentText {
  readonly url: string
  readonly title: string
  readonly content: string
  /** `sha256:` and the first 16 hex digits of the hash of title and text */
  readonly version: string
}

/** The version recorded when no consent page is published: the label text alone was shown. */
export const CONSENT_VERSION_LABEL_ONLY = 'label-only'
/** The version recorded when the database was down and this process had not read the text yet. */
export const CONSENT_VERSION_UNAVAILABLE = 'unavailable'

/**
 * The published consent page at `url` with the version of its text, as the visitor reads it (the
 * operator's details filled in). The version is a hash, so editing the page (or the details)
 * changes the version stored with every later lead, while old leads keep theirs.
 */
export async function findConsentText(
  db: Db,
  url: string | null,
  /** Fills the operator's details into a template (ContentService.fillDocument) */
  fill: (text: string) => Promise<string> = async (text) => text,
): Promise<ConsentText | null> {
  if (!url) return null
  const row = await loadPublishedText(db, url)
  if (!row) return null
  const content = await fill(row.content ?? '')
  return { url, title: row.title, content, version: consentVersion(row.title, content) }
}

export function consentVersion(title: string, content: string): string {
  return `sha256:${createHash('sha256').update(`${title}\n\n${content}`).digest('hex').slice(0, 16)}`
}
