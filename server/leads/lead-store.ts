// Storage of leads: one INSERT per lead and one outbox row per delivery channel, inside an
// immediate write transaction, so the lead, its consent record, its spam mark, its idempotency
// key and its deliveries are committed together or not at all.
import { createHash } from 'node:crypto'
import type { Db } from '../data/db'
import { now, writeTransaction } from '../data/db'
import { loadPublishedText } from '../content/structure-store'
import type { Lead } from '../../src/lead/lead'
import type { VisitTags } from '../../src/lead/lead-source'
import { normalizeRuPhone } from '../../src/format/phone'
import type { DeliveryChannel } from '../data/schema'
import { enqueueDeliveries } from './delivery/outbox'
import { leadSearchText } from './inbox/lead-search'

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

export interface NewLead {
  /** When the lead was accepted, if earlier than now (a lead coming back from the journal) */
  readonly at?: string
  readonly lead: Lead
  readonly consent: ConsentRecord
  readonly spam: boolean
  readonly idempotencyKey: string | null
  readonly origin: LeadOrigin
  /** The channels to queue a delivery for; a spam lead gets none */
  readonly channels: readonly DeliveryChannel[]
}

interface StoredLead {
  readonly id: number
  readonly createdAt: string
  /** false when the idempotency key was seen before: the first lead is returned, nothing stored */
  readonly created: boolean
}

const MAX_USER_AGENT = 1000

/**
 * Stores a lead and resolves only after COMMIT (SQLite runs with synchronous=FULL), so an answer
 * of 201 means the lead survives a crash. A repeated idempotency key returns the first lead.
 * Throws when the storage fails; nothing is half-written then.
 */
export async function storeLead(db: Db, input: NewLead): Promise<StoredLead> {
  const { lead, consent, spam, idempotencyKey, origin } = input
  try {
    return await writeTransaction(db, async (trx) => {
      if (idempotencyKey !== null) {
        const first = await findByKey(trx, idempotencyKey)
        if (first) return { ...first, created: false }
      }
      const createdAt = input.at ?? now()
      const phoneE164 = normalizeRuPhone(lead.phone)
      const row = await trx
        .insertInto('feedback')
        .values({
          username: lead.username,
          phone: lead.phone,
          email: lead.email,
          phoneE164,
          createdAt,
          idempotencyKey,
          consentAt: createdAt,
          consentIp: consent.ip.slice(0, 64),
          consentUserAgent: consent.userAgent?.slice(0, MAX_USER_AGENT) ?? null,
          consentVersion: consent.version,
          spam: spam ? 1 : 0,
          sourceUrl: origin.sourceUrl,
          productId: origin.product?.id ?? null,
          productTitle: origin.product?.title.slice(0, 500) ?? null,
          utm: origin.utm ? JSON.stringify(origin.utm) : null,
          searchText: leadSearchText({ ...lead, phoneE164 }),
        })
        .returning(['id', 'createdAt'])
        .executeTakeFirstOrThrow()
      // Spam is kept for review but never delivered.
      if (!spam) await enqueueDeliveries(trx, row.id, input.channels, new Date(createdAt))
      return { id: row.id, createdAt: row.createdAt, created: true }
    })
  } catch (error) {
    // PostgreSQL: two requests with one key raced past the lookup; the loser reads the winner.
    if (idempotencyKey !== null) {
      const first = await findByKey(db, idempotencyKey).catch(() => undefined)
      if (first) return { ...first, created: false }
    }
    throw error
  }
}

async function findByKey(db: Pick<Db, 'selectFrom'>, key: string) {
  return db.selectFrom('feedback').select(['id', 'createdAt']).where('idempotencyKey', '=', key).executeTakeFirst()
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
 * The published consent page at `url` with the version of its text. The version is a hash, so
 * editing the page changes the version stored with every later lead, while old leads keep theirs.
 */
export async function findConsentText(db: Db, url: string | null): Promise<ConsentText | null> {
  if (!url) return null
  const row = await loadPublishedText(db, url)
  if (!row) return null
  const content = row.content ?? ''
  return { url, title: row.title, content, version: consentVersion(row.title, content) }
}

export function consentVersion(title: string, content: string): string {
  return `sha256:${createHash('sha256').update(`${title}\n\n${content}`).digest('hex').slice(0, 16)}`
}
