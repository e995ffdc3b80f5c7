// The leads repository's reads and the owner's changes: pages of leads by tab and search with
// their source, consent record and deliveries, «не спам» and «Отправить ещё раз», the rows of the
// CSV export, and a lead as the delivery channels tell it. Rows become domain types here.
import { type Selectable } from 'kysely'
import { type AdminDelivery, type AdminLead, type AdminLeadStatus, type LeadTab } from '../../../src/admin/admin-leads'
import { type Db } from '../../data/db'
import { writeTransaction } from '../../data/write-transaction'
import type { DeliveryChannel, FeedbackTable } from '../../data/schema'
import { idIn, inTab, leadSearch, tabCounts, tabFilter } from './lead-search-query'
import {
  CONSENT_COLUMNS,
  CONTACT_COLUMNS,
  EXPORT_FIELDS,
  parseVisitTags,
  singleLine,
  type DeliverableLead,
} from './stored-lead'
import { deliveriesOf, enqueueDeliveries, requeueLeadDeliveries } from './delivery-outbox'
import { linesOf } from './lead-lines'
import { rublesNumber } from '../../../src/format/money'

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
  'oneCStatus',
  'oneCStatusAt',
  'total',
  'note',
  ...CONSENT_COLUMNS,
] as const

export async function listLeads(db: Db, query: LeadQuery) {
  const search = await leadSearch(db, query.q)
  const { after } = query
  let listing = search.matches
    ? db
        .selectFrom('feedback')
        .select(LEAD_COLUMNS)
        .where(
          idIn(
            db,
            search.matches.filter((lead) => inTab(lead, query.tab)).map((lead) => lead.id),
          ),
        )
    : db.selectFrom('feedback').select(LEAD_COLUMNS).where(search.filter).where(tabFilter(query.tab))
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
  const ids = rows.map((row) => row.id)
  const deliveries = await deliveriesOf(db, ids)
  const lines = await linesOf(db, ids)
  const rubles = (kopecks: number | null) => (kopecks === null ? null : rublesNumber(kopecks))
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
    oneC: row.oneCStatus === null ? null : { status: row.oneCStatus, at: row.oneCStatusAt },
    deliveries: deliveries
      .filter((delivery) => delivery.feedbackId === row.id)
      .map(({ feedbackId: _lead, ...delivery }): AdminDelivery => delivery),
    lines: (lines.get(row.id) ?? []).map((line) => ({ ...line, price: rubles(line.price), sum: rubles(line.sum) })),
    total: rubles(row.total),
    note: row.note,
  }))
}

interface LeadChange {
  readonly status?: AdminLeadStatus
  /** Only false: a spam lead becomes a real one and is delivered */
  readonly spam?: false
  /** The manager's note, already cleaned and bounded; null clears it */
  readonly note?: string | null
}

/**
 * Applies the owner's change in one transaction: the status, the note, and for a spam lead marked as not
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
    if (change.note !== undefined) {
      await trx.updateTable('feedback').set({ note: change.note }).where('id', '=', id).execute()
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
    .select([...CONTACT_COLUMNS, 'sourceUrl', 'productId', 'productTitle', 'utm', 'total'])
    .where('id', '=', id)
    .executeTakeFirst()
  if (!row) return undefined
  const lines = (await linesOf(db, [id])).get(id) ?? []
  return singleLine({ ...row, utm: parseVisitTags(row.utm), lines })
}

/**
 * Every lead that is not spam, oldest first, a page at a time (keyset on id): what the export
 * holds, read so that memory stays the same whatever the number of leads. Each row carries its
 * lines and total in rubles, as the model API gives them to `npm run leads -- export`.
 */
export async function* exportLeadPages(db: Db, pageSize = 1000): AsyncGenerator<Array<Record<string, unknown>>> {
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
    const lines = await linesOf(
      db,
      rows.map((row) => row.id),
    )
    const rubles = (kopecks: number | null) => (kopecks === null ? null : rublesNumber(kopecks))
    if (rows.length > 0) {
      yield rows.map((row) => ({
        ...row,
        total: rubles(row.total),
        lines: (lines.get(row.id) ?? []).map((line) => ({ ...line, price: rubles(line.price), sum: rubles(line.sum) })),
      }))
    }
    if (rows.length < pageSize) return
    after = Number(rows[rows.length - 1].id)
  }
}
