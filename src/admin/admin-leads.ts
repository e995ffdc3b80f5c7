// The back office's lead inbox as its API answers it (GET /api/admin/leads…): the types and names
// the server builds the answer from and the pages read it with.
import type { VisitTags } from '../lead/lead-source'

export const LEAD_TABS = ['new', 'in_progress', 'closed', 'spam'] as const
export type LeadTab = (typeof LEAD_TABS)[number]

export const LEAD_STATUSES = ['new', 'in_progress', 'closed'] as const
export type AdminLeadStatus = (typeof LEAD_STATUSES)[number]

/** The inbox's tab names, as the owner reads them */
export const LEAD_TAB_TITLES: Readonly<Record<LeadTab, string>> = {
  new: 'Новые',
  in_progress: 'В работе',
  closed: 'Закрытые',
  spam: 'Спам',
}

export interface AdminDelivery {
  readonly id: number
  readonly channel: 'email' | 'telegram' | 'webhook'
  readonly status: 'pending' | 'sent' | 'dead'
  readonly attempts: number
  /** ISO 8601 UTC; meaningful while pending */
  readonly nextAttemptAt: string
  readonly sentAt: string | null
  readonly lastError: string | null
}

export interface AdminLead {
  readonly id: number
  /** ISO 8601 UTC */
  readonly createdAt: string
  readonly username: string
  readonly phone: string
  readonly email: string
  readonly status: AdminLeadStatus
  readonly spam: boolean
  readonly source: {
    /** Path and query of the page the form was sent from */
    readonly url: string | null
    readonly productId: number | null
    readonly productTitle: string | null
    readonly utm: VisitTags | null
  }
  /** The consent record (152-FZ); null fields for leads stored before it was kept */
  readonly consent: {
    readonly at: string | null
    readonly ip: string | null
    readonly userAgent: string | null
    readonly version: string | null
  }
  /** ISO 8601 UTC: when 1C took it as an order (the 1C exchange), else null */
  readonly exportedTo1cAt: string | null
  /** The order's status as 1C last sent it back, and when; null until it does */
  readonly oneC: { readonly status: string; readonly at: string | null } | null
  readonly deliveries: readonly AdminDelivery[]
  /** What the lead asked for, as it was when sent (docs/decisions/041-request-list.md); [] for none */
  readonly lines: readonly AdminLeadLine[]
  /** Rubles: the lines' total when every line has a price, else null */
  readonly total: number | null
  /** The manager's note, null when none; only the back office and the CSV show it */
  readonly note: string | null
}

/** The most characters a manager's note may hold */
export const LEAD_NOTE_MAX = 2000

/** One line of a lead: the product as it was when the lead was sent. Prices in rubles; null: «по запросу». */
export interface AdminLeadLine {
  readonly productId: number
  readonly title: string
  readonly article: string | null
  readonly price: number | null
  readonly quantity: number
  readonly sum: number | null
}

/**
 * A lead accepted while the database was away that it then refused for good (a value it cannot
 * hold): kept in the journal's dead-letter file, so the owner can still answer the visitor.
 */
export interface AdminDeadLetter {
  /** ISO 8601 UTC: when the visitor sent it */
  readonly sentAt: string
  /** ISO 8601 UTC: when the database refused it */
  readonly movedAt: string
  /** The database's words, without personal data */
  readonly reason: string
  readonly username: string
  readonly phone: string
  readonly email: string
  /** Path and query of the page the form was sent from */
  readonly sourceUrl: string | null
}

export interface AdminLeadPage {
  readonly data: AdminLead[]
  readonly total: number
  /** The page number when asked by `page`; null when asked by `after` */
  readonly page: number | null
  readonly pageSize: number
  /** The next page: pass `after` back; null on the last page */
  readonly next: { readonly after: string } | null
  /** Leads in each tab that match the search (all leads without one), counted up to 1,000 */
  readonly counts: Readonly<Record<LeadTab, number>>
  /** Tabs with more leads than their count says: shown as «1000+» */
  readonly countsOver: Readonly<Record<LeadTab, boolean>>
}
