// One typo forgiven (docs/decisions/030-search.md): only when a query finds nothing, each word whose
// token the index does not know is replaced by the closest token of the vocabulary (searchWord)
// within Levenshtein distance 1 for words of 4–7 letters, 2 for 8 and more. Candidates are looked
// up by the token's first character and length (an index), so the cost depends on the vocabulary's
// share of such tokens, never on the number of products; a typo in the first letter is not forgiven.
import { distance } from 'fastest-levenshtein'
import type { Kysely, Transaction } from 'kysely'
import type { Database } from '../../data/schema'
import { queryOf, type SearchQuery } from './search-query'

type Queryable = Kysely<Database> | Transaction<Database>

/** Candidates compared per word at most: bounds a word of a very common first letter and length */
const MAX_CANDIDATES = 5000

/** The distance a word of this many letters may be off by: 0 (none), 1 or 2. */
export function allowedDistance(letters: number): number {
  if (letters >= 8) return 2
  if (letters >= 4) return 1
  return 0
}

/** Whether the vocabulary knows the token (the last one: any token it begins). */
async function isKnown(db: Queryable, token: string, prefix: boolean): Promise<boolean> {
  let query = db.selectFrom('searchWord').select('token')
  query = prefix
    ? query.where('token', '>=', token).where('token', '<', `${token}\u{10FFFF}`)
    : query.where('token', '=', token)
  return (await query.limit(1).executeTakeFirst()) !== undefined
}

async function closest(db: Queryable, token: string, maxDistance: number) {
  const letters = [...token]
  const candidates = await db
    .selectFrom('searchWord')
    .select(['token', 'word', 'uses'])
    .where('head', '=', letters[0])
    .where('length', '>=', letters.length - maxDistance)
    .where('length', '<=', letters.length + maxDistance)
    .limit(MAX_CANDIDATES)
    .execute()
  let best: { token: string; word: string; uses: number; distance: number } | null = null
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
  return best
}

/** The query with its unknown words corrected, or null when there is nothing to correct. */
export async function correctQuery(db: Queryable, query: SearchQuery): Promise<SearchQuery | null> {
  const words = [...query.words]
  let changed = false
  for (const [i, token] of query.tokens.entries()) {
    const word = query.words[i]
    const maxDistance = allowedDistance([...word].length)
    if (maxDistance === 0 || /\p{N}/u.test(word)) continue
    if (await isKnown(db, token, i === query.tokens.length - 1)) continue
    const best = await closest(db, token, maxDistance)
    if (!best) continue
    words[i] = best.word
    changed = true
  }
  return changed ? queryOf(words, query.cut) : null
}
