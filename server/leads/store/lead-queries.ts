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
import { isSqlite } from '../../data/dialect'
import { leadSearchNeedle, leadSearchPattern, leadSearchPhrase } from './lead-search'
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

/**
 * Matches a search gathers whole (docs/decisions/030-search.md): up to this many, the page and
 * the tab counts come from them; a term found in more leads fills a page from the newest leads of
 * the tab at once, by the tab's index.
 */
const GATHERED_MATCHES = 2000

/** A lead the search matched, with what places it in a tab */
interface LeadMatch {
  readonly id: number
  readonly spam: number
  readonly status: string
}

/** How a search selects leads. */
interface LeadSearch {
  readonly filter: FeedbackFilter
  /** Every match, when there are at most GATHERED_MATCHES: the page and the counts come from them */
  readonly matches?: readonly LeadMatch[]
  /**
   * SQLite, a term in many leads: the counts read the leads the trigram index names, in id order,
   * until a tab has its LEAD_COUNT_LIMIT + 1 (streamed, never gathered whole)
   */
  readonly countByIndex?: { readonly phrase: string; readonly pattern: string }
  /**
   * A term shorter than a trigram in many leads: no index can count it, so each tab's count looks
   * at its newest COUNT_WINDOW leads only, and says «N+» when the tab holds more
   */
  readonly countInWindow?: string
}

/** Leads of a tab a count without an index looks at, newest first (a short, common term) */
const COUNT_WINDOW = 5000

/**
 * The search. A match is always the LIKE on `searchText`, the same on both databases; an index
 * only narrows the rows it is checked on: PostgreSQL's trigram GIN index, which its planner uses
 * with that LIKE by itself, and on SQLite the FTS5 trigram table, read first and each lead it
 * names checked with the LIKE (migration 019). The matches are gathered once, at most
 * GATHERED_MATCHES + 1 of them: a rare term then costs one read of the index, and the page and the
 * counts are read from those few leads. A term shorter than a trigram has no index to ask: its
 * gathering scans the leads, once, and stops at the limit.
 */
async function leadSearch(db: Db, q: string): Promise<LeadSearch> {
  const number = LEAD_NUMBER.exec(q.trim())
  if (number) return { filter: (eb) => eb('id', '=', Number(number[1])) }
  const needle = leadSearchNeedle(q)
  if (needle === null) return { filter: (eb) => eb.and([]) }
  const pattern = leadSearchPattern(needle)
  const like = sql<boolean>`${sql.ref('searchText')} like ${pattern} escape '\\'`
  const matches = (await leadMatchesQuery(db, needle, GATHERED_MATCHES + 1).execute(db)).rows.map((row) => ({
    id: Number(row.id),
    spam: Number(row.spam),
    status: row.status,
  }))
  if (matches.length <= GATHERED_MATCHES) return { filter: () => like, matches }
  const phrase = leadSearchPhrase(needle)
  if (phrase === null) return { filter: () => like, countInWindow: pattern }
  return { filter: () => like, countByIndex: isSqlite(db) ? { phrase, pattern } : undefined }
}

/**
 * The query that gathers at most `limit` leads whose search text contains the needle, by the
 * trigram index where the needle is long enough (the tests read its plan).
 */
export function leadMatchesQuery(db: Db, needle: string, limit: number) {
  const pattern = leadSearchPattern(needle)
  const phrase = leadSearchPhrase(needle)
  if (isSqlite(db) && phrase !== null) {
    // CROSS JOIN keeps the FTS5 table the outer loop: each lead it names is looked up by its id.
    return sql<LeadMatch>`select f."id", f."spam", f."status" from "feedbackSearch" s cross join "feedback" f on f."id" = s.rowid
      where s."feedbackSearch" match ${phrase} and f."searchText" like ${pattern} escape '\\' limit ${limit}`
  }
  return sql<LeadMatch>`select "id", "spam", "status" from "feedback" where "searchText" like ${pattern} escape '\\' limit ${limit}`
}

function inTab(lead: LeadMatch, tab: LeadTab): boolean {
  return tab === 'spam' ? lead.spam === 1 : lead.spam === 0 && lead.status === tab
}

/** The ids as one parameter (a JSON array on SQLite, an array on PostgreSQL): one statement whatever their number. */
function idIn(db: Db, ids: readonly number[]): FeedbackFilter {
  return isSqlite(db)
    ? (eb) => eb('id', 'in', sql<number>`(select value from json_each(${JSON.stringify(ids)}))`)
    : () => sql<boolean>`${sql.ref('id')} = any(${ids}::int[])`
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

/** A tab's count stops here: «1000+» (decision 028) */
export const LEAD_COUNT_LIMIT = 1000

/**
 * How many leads of each tab match the search, counted up to LEAD_COUNT_LIMIT: a tab's rows by its
 * index, at most one more than the limit, so the cost does not grow with the leads (the tabs divide
 * the table, so with a search that matches few it is at most one scan in all, as the page itself).
 */
async function tabCounts(db: Db, search: LeadSearch) {
  const counts: Record<LeadTab, number> = { new: 0, in_progress: 0, closed: 0, spam: 0 }
  const countsOver: Record<LeadTab, boolean> = { new: false, in_progress: false, closed: false, spam: false }
  for (const tab of LEAD_TABS) {
    if (search.matches) {
      const count = search.matches.filter((lead) => inTab(lead, tab)).length
      counts[tab] = Math.min(count, LEAD_COUNT_LIMIT)
      countsOver[tab] = count > LEAD_COUNT_LIMIT
      continue
    }
    if (search.countInWindow !== undefined) {
      const row = await countInWindow(db, search.countInWindow, tab)
      counts[tab] = Math.min(Number(row.matched), LEAD_COUNT_LIMIT)
      countsOver[tab] = Number(row.matched) > LEAD_COUNT_LIMIT || Number(row.seen) > COUNT_WINDOW
      continue
    }
    const row = search.countByIndex
      ? await countByIndex(db, search.countByIndex, tab)
      : await db
          .selectFrom((eb) =>
            eb
              .selectFrom('feedback')
              .select('id')
              .where(search.filter)
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

/**
 * A tab's count of a common term on SQLite: the trigram index's leads as the outer loop (CROSS
 * JOIN keeps that order), each looked up by its id, until the cap. The tab's index would read the
 * tab from its oldest lead, which for a term found mostly in new leads means nearly all of them.
 */
/** A tab's newest COUNT_WINDOW + 1 leads: how many were looked at, and how many of them match. */
async function countInWindow(db: Db, pattern: string, tab: LeadTab) {
  const inTab = tab === 'spam' ? sql`"spam" = 1` : sql`"spam" = 0 and "status" = ${tab}`
  const { rows } = await sql<{ seen: number | string; matched: number | string | null }>`select count(*) as "seen",
      sum(case when w."searchText" like ${pattern} escape '\\' then 1 else 0 end) as "matched" from (
      select "searchText" from "feedback" where ${inTab} order by "createdAt" desc, "id" desc limit ${COUNT_WINDOW + 1}) w`.execute(
    db,
  )
  return { seen: rows[0]?.seen ?? 0, matched: rows[0]?.matched ?? 0 }
}

async function countByIndex(db: Db, { phrase, pattern }: { phrase: string; pattern: string }, tab: LeadTab) {
  const inTab = tab === 'spam' ? sql`f."spam" = 1` : sql`f."spam" = 0 and f."status" = ${tab}`
  const { rows } = await sql<{ count: number }>`select count(*) as "count" from (
      select f."id" from "feedbackSearch" s cross join "feedback" f on f."id" = s.rowid
      where s."feedbackSearch" match ${phrase} and f."searchText" like ${pattern} escape '\\' and ${inTab}
      limit ${LEAD_COUNT_LIMIT + 1})`.execute(db)
  return rows[0]
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
