// One typo forgiven (docs/decisions/030-search.md): only when a query finds nothing, each word whose
// token the index does not know is replaced by the closest token of the vocabulary (searchWord)
// within Levenshtein distance 1 for words of 4–7 letters, 2 for 8 and more. Candidates are looked
// up by the token's first character and length (an index), so the cost depends on the vocabulary's
// share of such tokens, never on the number of products; a typo in the first letter is not forgiven.
// The work per request is bounded (TYPO_LIMITS): a query of many unknown words costs one lookup.
import { distance } from 'fastest-levenshtein'
import type { Kysely, Transaction } from 'kysely'
import type { Database } from '../../data/schema'
import { queryOf, type SearchQuery } from './search-query'

type Queryable = Kysely<Database> | Transaction<Database>

/**
 * The work one request may spend on typos (issue #36): unknown words corrected at most (more of
 * them is not a mistyped query but noise, and every word must match, so the retry would find
 * nothing), and vocabulary rows compared across all of them. A candidate row costs about as
 * much as a normal search's row, so 1,500 of them keep the worst query near a few normal
 * searches. A crowded first letter and length is read most used first.
 */
export const TYPO_LIMITS = Object.freeze({ words: 3, candidates: 1500 })

/** The distance a word of this many letters may be off by: 0 (none), 1 or 2. */
export function allowedDistance(letters: number): number {
  if (letters >= 8) return 2
  if (letters >= 4) return 1
  return 0
}

/** The tokens the vocabulary knows, in one query (the last one: any token it begins). */
async function knownTokens(db: Queryable, tokens: readonly string[], lastIsPrefix: boolean): Promise<Set<string>> {
  const last = tokens.at(-1)!
  const whole = lastIsPrefix ? tokens.slice(0, -1) : tokens
  const known = new Set<string>()
  if (whole.length > 0) {
    const rows = await db.selectFrom('searchWord').select('token').where('token', 'in', whole).execute()
    for (const row of rows) known.add(row.token)
  }
  if (lastIsPrefix) {
    const row = await db
      .selectFrom('searchWord')
      .select('token')
      .where('token', '>=', last)
      .where('token', '<', `${last}\u{10FFFF}`)
      .limit(1)
      .executeTakeFirst()
    if (row) known.add(last)
  }
  return known
}

async function closest(db: Queryable, token: string, maxDistance: number, limit: number) {
  const letters = [...token]
  const candidates = await db
    .selectFrom('searchWord')
    .select(['token', 'uses'])
    .where('head', '=', letters[0])
    .where('length', '>=', letters.length - maxDistance)
    .where('length', '<=', letters.length + maxDistance)
    .orderBy('uses', 'desc')
    .limit(limit)
    .execute()
  let best: { token: string; uses: number; distance: number } | null = null
  for (const candidate of candidates) {
    const d = distance(token, candidate.token)
    if (d === 0 || d > maxDistance) continue
    if (
      !best ||
      d < best.distance ||
      (d === best.distance && candidate.uses > best.uses) ||
      (d === best.distance && candidate.uses === best.uses && candidate.token < best.token)
    ) {
      best = { ...candidate, distance: d }
    }
  }
  if (!best) return null
  const row = await db.selectFrom('searchWord').select('word').where('token', '=', best.token).executeTakeFirst()
  return row ? row.word : null
}

/**
 * The query with its unknown words corrected, or null when there is nothing to correct. Bounded
 * by TYPO_LIMITS: one query finds the unknown words, more than `words` of them are not
 * corrected at all, and the first one without a correction ends the attempt (the retry could not
 * find anything), so a request costs at most two lookups per corrected word.
 */
export async function correctQuery(db: Queryable, query: SearchQuery): Promise<SearchQuery | null> {
  const correctable = query.tokens
    .map((token, i) => ({ token, i, maxDistance: allowedDistance([...query.words[i]].length) }))
    .filter(({ i, maxDistance }) => maxDistance > 0 && !/\p{N}/u.test(query.words[i]))
  if (correctable.length === 0) return null
  const lastIsPrefix = correctable.at(-1)!.i === query.tokens.length - 1
  const known = await knownTokens(
    db,
    correctable.map(({ token }) => token),
    lastIsPrefix,
  )
  const unknown = correctable.filter(({ token }) => !known.has(token))
  if (unknown.length === 0 || unknown.length > TYPO_LIMITS.words) return null
  const words = [...query.words]
  let budget = TYPO_LIMITS.candidates
  for (const [n, { token, i, maxDistance }] of unknown.entries()) {
    const share = Math.floor(budget / (unknown.length - n))
    const best = await closest(db, token, maxDistance, share)
    if (!best) return null
    budget -= share
    words[i] = best
  }
  return queryOf(words, query.cut)
}
