// A stored lead as the rest of the product reads it, without any query: what a delivery channel
// needs, the fields of the owner's CSV file, the visit tags as stored. Kept apart from the
// queries so that the command-line export can name the fields without loading a database driver.
import { VISIT_TAG_KEYS, type VisitTags } from '../../../src/lead/lead-source'
import { oneLine } from '../../../src/validation/plain-text'
import type { FeedbackTable } from '../../data/schema'
import type { LeadLine } from './lead-lines'

/** What a delivery channel needs of a lead. */
export interface DeliverableLead {
  readonly id: number
  readonly createdAt: string
  readonly username: string
  readonly phone: string
  readonly phoneE164: string | null
  readonly email: string
  readonly sourceUrl: string | null
  readonly productId: number | null
  readonly productTitle: string | null
  readonly utm: VisitTags | null
  /** What the lead asked for, as it was when sent (docs/decisions/041-request-list.md); [] for none */
  readonly lines: readonly LeadLine[]
  /** Whole kopecks: the lines' total when every line has a price, else null */
  readonly total: number | null
}

/**
 * The lead with every text on one line, as each channel must write it (a line break in a name
 * would add a line of its own to a Telegram message or an e-mail): rows of older releases, or of
 * any way in that let one through, included.
 */
export function singleLine(lead: DeliverableLead): DeliverableLead {
  const orNull = (text: string | null) => (text === null ? null : oneLine(text))
  return {
    ...lead,
    username: oneLine(lead.username),
    phone: oneLine(lead.phone),
    email: oneLine(lead.email),
    sourceUrl: orNull(lead.sourceUrl),
    productTitle: orNull(lead.productTitle),
    lines: lead.lines.map((line) => ({ ...line, title: oneLine(line.title), article: orNull(line.article) })),
    utm: lead.utm && Object.fromEntries(Object.entries(lead.utm).map(([key, value]) => [key, oneLine(value)])),
  }
}

/** Who sent a lead and when: the columns every reading of a whole lead starts with. */
export const CONTACT_COLUMNS = [
  'id',
  'createdAt',
  'username',
  'phone',
  'phoneE164',
  'email',
] as const satisfies ReadonlyArray<keyof FeedbackTable>

/** The consent record kept with a lead (docs/decisions/027-personal-data.md). */
export const CONSENT_COLUMNS = [
  'consentAt',
  'consentIp',
  'consentUserAgent',
  'consentVersion',
] as const satisfies ReadonlyArray<keyof FeedbackTable>

/** The lead fields of the owner's CSV file, in its column order. */
export const EXPORT_FIELDS = [
  'id',
  'createdAt',
  'username',
  'phone',
  'email',
  'sourceUrl',
  'productTitle',
  'utm',
  'total',
  'note',
] as const satisfies ReadonlyArray<keyof FeedbackTable>

export type ExportField = (typeof EXPORT_FIELDS)[number]

/** The stored JSON of the visit tags, keeping only known keys with text values. */
export function parseVisitTags(json: string | null): VisitTags | null {
  if (!json) return null
  try {
    const parsed: unknown = JSON.parse(json)
    if (typeof parsed !== 'object' || parsed === null) return null
    const tags: VisitTags = {}
    for (const key of VISIT_TAG_KEYS) {
      const value = (parsed as Record<string, unknown>)[key]
      if (typeof value === 'string' && value !== '') tags[key] = value
    }
    return Object.keys(tags).length > 0 ? tags : null
  } catch {
    return null
  }
}
