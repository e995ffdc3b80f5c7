// What a visitor's query becomes (docs/decisions/030-search.md): bounded, normalised by the same
// functions as the index, and the one SQL of the search on each database. Every word must match
// (AND), the last one as a prefix; an артикул typed in any form matches its key. Ranking: the
// артикул's key first, then products whose title (or артикул) holds every word, then the others;
// within each, the oldest record first, so both databases answer in the same order.
import { sql, type Kysely, type RawBuilder, type Transaction } from 'kysely'
import { isSqlite } from '../../data/sql/dialect'
import type { Availability, Database } from '../../data/schema'
import { isPublicRecord } from '../../content/visibility'
import { articleKey, splitWords, tokenOf } from './search-text'
import { CARD_COLUMNS } from '../products/listing-store'

type Queryable = Kysely<Database> | Transaction<Database>

export const SEARCH_LIMITS = Object.freeze({
  /** Characters of a query; a longer one is refused with a message */
  maxChars: 200,
  /** Words of a query that are searched; the others are left out, and the page says so */
  maxWords: 8,
  pageSize: 24,
  /** Pages a query can be paged to (24 × 100 results) */
  maxPage: 100,
})

export interface SearchQuery {
  /** The words searched, folded (lower case, ё → е) */
  readonly words: readonly string[]
  /** Their tokens, in order; the last one is looked up as a prefix */
  readonly tokens: readonly string[]
  /** The whole query's артикул key, when it has a digit */
  readonly articleKey: string | null
  /** Words past maxWords were left out */
  readonly cut: boolean
}

export type ParsedSearch = { kind: 'empty' } | { kind: 'too_long' } | { kind: 'query'; query: SearchQuery }

/** A visitor's text as a query: empty, too long, or the words to search. */
export function parseSearch(text: string): ParsedSearch {
  if ([...text].length > SEARCH_LIMITS.maxChars) return { kind: 'too_long' }
  const all = splitWords(text)
  if (all.length === 0) return { kind: 'empty' }
  return { kind: 'query', query: queryOf(all.slice(0, SEARCH_LIMITS.maxWords), all.length > SEARCH_LIMITS.maxWords) }
}

/** The query of the given folded words (the typo correction makes new ones from its words). */
export function queryOf(words: readonly string[], cut = false): SearchQuery {
  const key = articleKey(words.join(''))
  return {
    words,
    tokens: words.map(tokenOf),
    articleKey: key !== null && /\p{N}/u.test(key) && key.length >= 2 ? key : null,
    cut,
  }
}

/** A row of the search's answer: what a product card shows. */
export interface SearchRow {
  id: number
  title: string
  urlFull: string
  image: string | null
  article: string | null
  price: number | null
  oldPrice: number | null
  availability: Availability
}

/** The last token is a prefix only from two characters on (FTS5's prefix index is '2 3'). */
function isPrefix(token: string): boolean {
  return [...token].length >= 2
}

/** FTS5: `"a" AND "b"*`, optionally only in the name column. Tokens are letters and digits only. */
function ftsExpression(tokens: readonly string[], nameOnly: boolean): string {
  const terms = tokens.map((t, i) => `"${t}"${i === tokens.length - 1 && isPrefix(t) ? '*' : ''}`)
  const all = terms.join(' AND ')
  return nameOnly ? `"name" : (${all})` : all
}

/** PostgreSQL: the `i`th token's term, `'a'` or `'b':*` (the last token, a prefix), with weight A for the name. */
function tsTerm(tokens: readonly string[], i: number, nameOnly: boolean): string {
  const t = tokens[i]
  const prefix = i === tokens.length - 1 && isPrefix(t) ? '*' : ''
  const weight = nameOnly ? 'A' : ''
  return `'${t}'${prefix || weight ? `:${prefix}${weight}` : ''}`
}

/** PostgreSQL: `'a' & 'b':*`, or with weight A (the name) on every term. */
function tsQuery(tokens: readonly string[], nameOnly: boolean): string {
  return tokens.map((_, i) => tsTerm(tokens, i, nameOnly)).join(' & ')
}

function matchers(db: Queryable, tokens: readonly string[], key: string | null, nameOnly = false) {
  if (isSqlite(db)) {
    return sql<{
      id: number
    }>`(select rowid as "id" from "searchIndexFts" where "searchIndexFts" match ${ftsExpression(tokens, nameOnly)} union select "structureId" from "searchIndex" where "articleKey" = ${key})`
  }
  return sql<{
    id: number
  }>`(select "structureId" as "id" from "searchIndex" where "document" @@ to_tsquery('simple', ${tsQuery(tokens, nameOnly)}) union select "structureId" from "searchIndex" where "articleKey" = ${key})`
}

/** The ranking's tiers, best first: the артикул's key, every word in the name, the other matches. */
const TIERS = ['article', 'name', 'rest'] as const
type Tier = (typeof TIERS)[number]

/**
 * PostgreSQL, a query the vocabulary says few records can match (issue #36): the planner estimates
 * every tsquery with a prefix at about 2 % of the rows whatever its words, and for the tier's
 * `order by id limit n` then prefers reading `searchIndex` in id order and testing each row, which
 * for a rare term reads every row (42–107 ms a tier at 100,000 products) where the GIN index takes
 * under a millisecond. Each word's count of records in `searchWord` (the last word's prefix summed
 * over at most PREFIX_WORDS words) bounds the matches, in one statement. At most RARE_MATCHES: the
 * matches are read at once by the GIN index, each with its tier, and the pages are made from those
 * lists (whose length the planner then knows); none: no tier is asked. A common word keeps the
 * ordered read, which stops at the page's rows. Only the plan depends on this, never the answer.
 */
const RARE_MATCHES = 1000
const PREFIX_WORDS = 200

type FewMatches = { readonly name: readonly number[]; readonly rest: readonly number[] }

async function fewMatches(db: Queryable, query: SearchQuery): Promise<FewMatches | null> {
  const { tokens } = query
  const bounds = tokens.map((token, i) =>
    i === tokens.length - 1 && isPrefix(token)
      ? sql`(select case when count(*) >= ${PREFIX_WORDS} then ${RARE_MATCHES + 1} else coalesce(sum("uses"), 0) end from (
          select "uses" from "searchWord" where "token" >= ${token} and "token" < ${token} || chr(1114111) limit ${PREFIX_WORDS}) w)`
      : sql`(select coalesce(sum("uses"), 0) from "searchWord" where "token" = ${token})`,
  )
  const { rows } = await sql<Record<string, number | string>>`select ${sql.join(
    bounds.map((bound, i) => sql`${bound} as ${sql.ref(`b${i}`)}`),
  )}`.execute(db)
  const counts = tokens.map((_, i) => Number(rows[0]?.[`b${i}`]))
  const bound = Math.min(...counts)
  if (bound > RARE_MATCHES) return null
  if (bound === 0) return { name: [], rest: [] }
  const all = sql`to_tsquery('simple', ${tsQuery(tokens, false)})`
  const name = sql`to_tsquery('simple', ${tsQuery(tokens, true)})`
  // The rarest word's few records first, then every word checked on them: the index's list of a
  // word every product has («модель») is never read (7 ms a search at 10,000 products).
  const rarest = sql`to_tsquery('simple', ${tsTerm(tokens, counts.indexOf(bound), false)})`
  const found = await sql<{ id: number; named: boolean }>`with "few" as materialized (
      select "structureId", "document" from "searchIndex" where "document" @@ ${rarest})
    select "structureId" as "id", "document" @@ ${name} as "named" from "few" where "document" @@ ${all}`.execute(db)
  return {
    name: found.rows.filter((row) => row.named).map((row) => row.id),
    rest: found.rows.filter((row) => !row.named).map((row) => row.id),
  }
}

/** The ids of one tier's matches: a subquery the database answers in id order from its index. */
function tierIds(db: Queryable, query: SearchQuery, tier: Tier, few: FewMatches | null): RawBuilder<{ id: number }> {
  if (tier === 'article')
    return sql`(select "structureId" as "id" from "searchIndex" where "articleKey" = ${query.articleKey})`
  if (few) return sql`(select unnest(${[...few[tier]]}::int[]) as "id")`
  if (isSqlite(db)) {
    const all = ftsExpression(query.tokens, false)
    const name = ftsExpression(query.tokens, true)
    return sql`(select rowid as "id" from "searchIndexFts" where "searchIndexFts" match ${tier === 'name' ? name : `(${all}) NOT (${name})`})`
  }
  const all = sql`to_tsquery('simple', ${tsQuery(query.tokens, false)})`
  const name = sql`to_tsquery('simple', ${tsQuery(query.tokens, true)})`
  return sql`(select "structureId" as "id" from "searchIndex" where "document" @@ ${tier === 'name' ? name : sql`(${all} && !!${name})`})`
}

/**
 * One page of the public products that match, best first, and whether there is a next page.
 * Tier by tier, each read in id order and stopped at the rows the page still needs: a word that
 * matches thousands of products reads one page of them (FTS5 walks its index in rowid order), not
 * all of them sorted. Cost: at most page × pageSize + 1 rows (maxPage bounds it).
 */
export async function findProducts(
  db: Queryable,
  query: SearchQuery,
  page: number,
  pageSize: number = SEARCH_LIMITS.pageSize,
): Promise<{ rows: SearchRow[]; hasNext: boolean }> {
  const wanted = page * pageSize + 1
  const rows: SearchRow[] = []
  let articleIds: number[] = []
  let few: FewMatches | null | undefined
  for (const tier of TIERS) {
    if (rows.length >= wanted) break
    if (tier === 'article' && query.articleKey === null) continue
    if (tier !== 'article' && few === undefined) few = isSqlite(db) ? null : await fewMatches(db, query)
    const tierFew = tier === 'article' ? null : (few ?? null)
    if (tierFew && tierFew[tier as 'name' | 'rest'].length === 0) continue
    let q = db
      .selectFrom(tierIds(db, query, tier, tierFew).as('m'))
      .innerJoin('structure', 'structure.id', 'm.id')
      .innerJoin('product', 'product.structureId', 'm.id')
      .select(CARD_COLUMNS)
      .where(isPublicRecord)
    // An артикул's product can match the words too: it is shown once, first (the name and the
    // other matches are apart by their queries).
    if (articleIds.length > 0) q = q.where('m.id', 'not in', articleIds)
    const found = await q
      .orderBy('m.id')
      .limit(wanted - rows.length)
      .execute()
    if (tier === 'article') articleIds = found.map((r) => r.id)
    rows.push(...found)
  }
  const from = (page - 1) * pageSize
  return { rows: rows.slice(from, from + pageSize), hasNext: rows.length > from + pageSize }
}

/** Records of any kind, published or not, whose title or артикул matches (the back office), newest first. */
export async function findRecords(db: Queryable, query: SearchQuery, limit: number) {
  return db
    .selectFrom(matchers(db, query.tokens, query.articleKey, true).as('m'))
    .innerJoin('structure', 'structure.id', 'm.id')
    .innerJoin('searchIndex as i', 'i.structureId', 'm.id')
    .select(['structure.id', 'structure.title', 'structure.urlFull', 'structure.typeId', 'structure.published'])
    .select(sql<number>`case when "i"."articleKey" = ${query.articleKey} then 0 else 1 end`.as('tier'))
    .orderBy('tier')
    .orderBy('structure.id', 'desc')
    .limit(limit)
    .execute()
}
