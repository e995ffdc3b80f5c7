// The inbox's search (docs/decisions/030-search.md, migration 019): what a search term selects,
// the matches gathered once by the trigram index where the term has a trigram, and the tabs'
// counts. A match is always the LIKE on `searchText`; an index only narrows the rows it is checked on.
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely'
import { LEAD_TABS, type LeadTab } from '../../../src/admin/admin-leads'
import type { Db } from '../../data/db'
import { isSqlite } from '../../data/sql/dialect'
import type { Database } from '../../data/schema'
import { leadSearchNeedle, leadSearchPattern, leadSearchPhrase } from './lead-search'

export type FeedbackFilter = (eb: ExpressionBuilder<Database, 'feedback'>) => Expression<SqlBool>

/** «№ 12» (or «#12»): the lead with that number, as the Telegram message and the cards name it */
const LEAD_NUMBER = /^[№#]\s*(\d{1,9})$/

/**
 * Matches a search gathers whole (docs/decisions/030-search.md): up to this many, the page and
 * the tab counts come from them; a term found in more leads fills a page from the newest leads of
 * the tab at once, by the tab's index.
 */
const GATHERED_MATCHES = 2000

/** A lead the search matched, with what places it in a tab */
export interface LeadMatch {
  readonly id: number
  readonly spam: number
  readonly status: string
}

/** How a search selects leads. */
export interface LeadSearch {
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
export async function leadSearch(db: Db, q: string): Promise<LeadSearch> {
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

export function inTab(lead: LeadMatch, tab: LeadTab): boolean {
  return tab === 'spam' ? lead.spam === 1 : lead.spam === 0 && lead.status === tab
}

/** The ids as one parameter (a JSON array on SQLite, an array on PostgreSQL): one statement whatever their number. */
export function idIn(db: Db, ids: readonly number[]): FeedbackFilter {
  return isSqlite(db)
    ? (eb) => eb('id', 'in', sql<number>`(select value from json_each(${JSON.stringify(ids)}))`)
    : () => sql<boolean>`${sql.ref('id')} = any(${ids}::int[])`
}

export function tabFilter(tab: LeadTab): FeedbackFilter {
  return (eb) => eb.and(tab === 'spam' ? [eb('spam', '=', 1)] : [eb('spam', '=', 0), eb('status', '=', tab)])
}

/** A tab's count stops here: «1000+» (decision 028) */
export const LEAD_COUNT_LIMIT = 1000

/**
 * How many leads of each tab match the search, counted up to LEAD_COUNT_LIMIT: a tab's rows by its
 * index, at most one more than the limit, so the cost does not grow with the leads (the tabs divide
 * the table, so with a search that matches few it is at most one scan in all, as the page itself).
 */
export async function tabCounts(db: Db, search: LeadSearch) {
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
