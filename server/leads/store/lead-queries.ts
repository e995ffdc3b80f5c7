// The leads repository's reads and the owner's changes: pages of leads by tab and search with
// their source, consent record and deliveries, «не спам» and «Отправить ещё раз», the rows of the
// CSV export, and a lead as the delivery channels tell it. Rows become domain types here.
import { sql, type Expression, type ExpressionBuilder, type Selectable, type SqlBool } from 'kysely'
import {
  LEAD_TABS,
  type AdminDelivery,
  type AdminLead,
  type AdminLeadStatus,
  type LeadTab,
} from '../../../src/admin/admin-leads'
import { writeTransaction, type Db } from '../../data/db'
import type { Database, DeliveryChannel, FeedbackTable } from '../../data/schema'
import { leadSearchPattern } from './lead-search'
import {
  CONSENT_COLUMNS,
  CONTACT_COLUMNS,
  EXPORT_FIELDS,
  parseVisitTags,
  singleLine,
  type DeliverableLead,
  type ExportField,
} from './stored-lead'
import { deliveriesOf, enqueueDeliveries, requeueLeadDeliveries } from '../delivery/outbox'

interface LeadQuery {
  readonly tab: LeadTab
  readonly q: string
  /** Offset paging, kept for older clients: the page number (ignored when `after` is given) */
  readonly page: number
  readonly pageSize: number
  /** Keyset paging: the leads older than this one (createdAt, id), newest first */
  readonly after?: LeadCursor | null
}

/** Where a page of the inbox ends: the last lead's createdAt and id. */
export interface LeadCursor {
  readonly createdAt: string
  readonly id: number
}

type FeedbackFilter = (eb: ExpressionBuilder<Database, 'feedback'>) => Expression<SqlBool>

/** «№ 12» (or «#12»): the lead with that number, as the Telegram message and the cards name it */
const LEAD_NUMBER = /^[№#]\s*(\d{1,9})$/

function searchFilter(q: string): FeedbackFilter {
  const number = LEAD_NUMBER.exec(q.trim())
  if (number) return (eb) => eb('id', '=', Number(number[1]))
  const pattern = leadSearchPattern(q)
  return (eb) => eb.and(pattern === null ? [] : [sql<boolean>`${sql.ref('searchText')} like ${pattern} escape '\\'`])
}

function tabFilter(tab: LeadTab): FeedbackFilter {
  return (eb) => eb.and(tab === 'spam' ? [eb('spam', '=', 1)] : [eb('spam', '=', 0), eb('status', '=', tab)])
}

const LEAD_COLUMNS = [
  'id',
  'createdAt',
  'username',
  'phone',
  'email',
  'status',
  'spam',
  'sourceUrl',
  'productId',
  'productTitle',
  'utm',
  'exportedAt',
  ...CONSENT_COLUMNS,
] as const

export async function listLeads(db: Db, query: LeadQuery) {
  const search = searchFilter(query.q)
  const { after } = query
  let listing = db.selectFrom('feedback').select(LEAD_COLUMNS).where(search).where(tabFilter(query.tab))
  if (after) {
    listing = listing.where((eb) =>
      eb.or([
        eb('createdAt', '<', after.createdAt),
        eb.and([eb('createdAt', '=', after.createdAt), eb('id', '<', after.id)]),
      ]),
    )
  }
  // One more than a page tells whether another page follows.
  const found = await listing
    .orderBy('createdAt', 'desc')
    .orderBy('id', 'desc')
    .limit(query.pageSize + 1)
    .offset(after ? 0 : (query.page - 1) * query.pageSize)
    .execute()
  const rows = found.slice(0, query.pageSize)
  const last = rows.at(-1)
  const next = found.length > query.pageSize && last ? { createdAt: last.createdAt, id: last.id } : null
  const { counts, countsOver } = await tabCounts(db, search)
  return { data: await withDeliveries(db, rows), total: counts[query.tab], counts, countsOver, next }
}

/** A tab's count stops here: «1000+» (decision 028) */
export const LEAD_COUNT_LIMIT = 1000

/**
 * How many leads of each tab match the search, counted up to LEAD_COUNT_LIMIT: a tab's rows by its
 * index, at most one more than the limit, so the cost does not grow with the leads (the tabs divide
 * the table, so with a search that matches few it is at most one scan in all, as the page itself).
 */
async function tabCounts(db: Db, search: FeedbackFilter) {
  const counts: Record<LeadTab, number> = { new: 0, in_progress: 0, closed: 0, spam: 0 }
  const countsOver: Record<LeadTab, boolean> = { new: false, in_progress: false, closed: false, spam: false }
  for (const tab of LEAD_TABS) {
    const row = await db
      .selectFrom((eb) =>
        eb
          .selectFrom('feedback')
          .select('id')
          .where(search)
          .where(tabFilter(tab))
          .limit(LEAD_COUNT_LIMIT + 1)
          .as('capped'),
      )
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .executeTakeFirstOrThrow()
    counts[tab] = Math.min(Number(row.count), LEAD_COUNT_LIMIT)
    countsOver[tab] = Number(row.count) > LEAD_COUNT_LIMIT
  }
  return { counts, countsOver }
}

/** The newest lead's id, for the inbox's polling (null: no lead yet). */
export async function latestLeadId(db: Db): Promise<number | null> {
  const row = await db
    .selectFrom('feedback')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst()
  return row?.id == null ? null : Number(row.id)
}

export async function findLead(db: Pick<Db, 'selectFrom'>, id: number): Promise<AdminLead | null> {
  const row = await db.selectFrom('feedback').select(LEAD_COLUMNS).where('id', '=', id).executeTakeFirst()
  return row ? (await withDeliveries(db, [row]))[0] : null
}

type LeadRow = Pick<Selectable<FeedbackTable>, (typeof LEAD_COLUMNS)[number]>

async function withDeliveries(db: Pick<Db, 'selectFrom'>, rows: readonly LeadRow[]): Promise<AdminLead[]> {
  if (rows.length === 0) return []
  const deliveries = await deliveriesOf(
    db,
    rows.map((row) => row.id),
  )
  return rows.map((row) => ({
    id: row.id,
    createdAt: row.createdAt,
    username: row.username,
    phone: row.phone,
    email: row.email,
    status: row.status,
    spam: row.spam === 1,
    source: {
      url: row.sourceUrl,
      productId: row.productId,
      productTitle: row.productTitle,
      utm: parseVisitTags(row.utm),
    },
    consent: { at: row.consentAt, ip: row.consentIp, userAgent: row.consentUserAgent, version: row.consentVersion },
    exportedTo1cAt: row.exportedAt,
    deliveries: deliveries
      .filter((delivery) => delivery.feedbackId === row.id)
      .map(({ feedbackId: _lead, ...delivery }): AdminDelivery => delivery),
  }))
}

interface LeadChange {
  readonly status?: AdminLeadStatus
  /** Only false: a spam lead becomes a real one and is delivered */
  readonly spam?: false
}

/**
 * Applies the owner's change in one transaction: the status, and for a spam lead marked as not
 * spam, its outbox rows for the configured channels (then it is delivered like any lead).
 * Returns null for an unknown lead and whether deliveries were queued.
 */
export async function changeLead(
  db: Db,
  id: number,
  change: LeadChange,
  channels: readonly DeliveryChannel[],
  at: Date,
): Promise<{ lead: AdminLead; queued: boolean } | null> {
  return writeTransaction(db, async (trx) => {
    const row = await trx.selectFrom('feedback').select(['id', 'spam']).where('id', '=', id).executeTakeFirst()
    if (!row) return null
    let queued = false
    if (change.status !== undefined) {
      await trx.updateTable('feedback').set({ status: change.status }).where('id', '=', id).execute()
    }
    if (change.spam === false && row.spam === 1) {
      await trx.updateTable('feedback').set({ spam: 0 }).where('id', '=', id).execute()
      await enqueueDeliveries(trx, id, channels, at)
      queued = channels.length > 0
    }
    return { lead: (await findLead(trx, id))!, queued }
  })
}

/** «Отправить ещё раз»: every delivery of the lead due now; a channel it never had is added. */
export async function resendLead(
  db: Db,
  id: number,
  channels: readonly DeliveryChannel[],
  at: Date,
): Promise<AdminLead | 'spam' | null> {
  return writeTransaction(db, async (trx) => {
    const row = await trx.selectFrom('feedback').select(['id', 'spam']).where('id', '=', id).executeTakeFirst()
    if (!row) return null
    if (row.spam === 1) return 'spam'
    const existing = await requeueLeadDeliveries(trx, id, at)
    await enqueueDeliveries(
      trx,
      id,
      channels.filter((channel) => !existing.includes(channel)),
      at,
    )
    return (await findLead(trx, id))!
  })
}

export async function loadDeliverableLead(
  db: Pick<Db, 'selectFrom'>,
  id: number,
): Promise<DeliverableLead | undefined> {
  const row = await db
    .selectFrom('feedback')
    .select([...CONTACT_COLUMNS, 'sourceUrl', 'productId', 'productTitle', 'utm'])
    .where('id', '=', id)
    .executeTakeFirst()
  return row ? singleLine({ ...row, utm: parseVisitTags(row.utm) }) : undefined
}

/**
 * Every lead that is not spam, oldest first, a page at a time (keyset on id): what the export
 * holds, read so that memory stays the same whatever the number of leads.
 */
export async function* exportLeadPages(db: Db, pageSize = 1000): AsyncGenerator<Array<Record<ExportField, unknown>>> {
  let after = 0
  for (;;) {
    const rows = await db
      .selectFrom('feedback')
      .select(EXPORT_FIELDS)
      .where('spam', '=', 0)
      .where('id', '>', after)
      .orderBy('id', 'asc')
      .limit(pageSize)
      .execute()
    if (rows.length > 0) yield rows
    if (rows.length < pageSize) return
    after = Number(rows[rows.length - 1].id)
  }
}
