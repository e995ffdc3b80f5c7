// The catalogue search as pages and the back office use it (docs/decisions/030-search.md): the
// query's words and the one SQL of each database (search-query.ts), the typo correction on zero
// hits (search-typo.ts), titles with the matched words marked, and a hit on a variant's артикул
// linking to that variant (search-variants.ts).
import type { Db } from '../../data/db'
import type { SearchAnswer, SearchSource, TitlePart } from '../../../src/site/search-types'
import { findProducts, findRecords, parseSearch, SEARCH_LIMITS, type SearchQuery } from './search-query'
import { foldCase, tokenOf } from './search-text'
import { correctQuery } from './search-typo'
import { matchedVariants } from './search-variants'

const WORD = /[\p{L}\p{N}]+/gu

/** The title in parts, the words whose token the query asked for marked (the last one as a prefix). */
export function highlight(title: string, query: SearchQuery): TitlePart[] {
  const exact = new Set(query.tokens.slice(0, -1))
  const last = query.tokens.at(-1) ?? ''
  const parts: TitlePart[] = []
  let at = 0
  const push = (text: string, mark: boolean) => {
    const previous = parts.at(-1)
    if (previous && previous.mark === mark) previous.text += text
    else if (text) parts.push({ text, mark })
  }
  for (const match of title.matchAll(WORD)) {
    push(title.slice(at, match.index), false)
    const token = tokenOf(foldCase(match[0]))
    push(match[0], exact.has(token) || token === last || (last.length >= 2 && token.startsWith(last)))
    at = match.index + match[0].length
  }
  push(title.slice(at), false)
  return parts
}

/** A record the back office's search found */
export interface FoundRecord {
  id: number
  title: string
  urlFull: string
  typeId: string
  published: boolean
}

const MAX_RECORDS = 20

/**
 * The typed text without control characters: those that break lines or tab are a space between
 * words, the rest (NUL, ESC, DEL, C1…) are dropped, so that neither the search nor the page's title
 * and search box ever carries one.
 */
export function withoutControls(text: string): string {
  return text.replace(/[\t\n\v\f\r\u0085\u2028\u2029]/g, ' ').replace(/\p{Cc}/gu, '')
}

export class CatalogueSearch implements SearchSource {
  constructor(private readonly db: Db) {}

  async find(text: string, page: number): Promise<SearchAnswer> {
    const typed = withoutControls(text).trim()
    const base = { query: typed, page, products: [], hasNext: false, suggestion: null, cut: false }
    const parsed = parseSearch(typed)
    if (parsed.kind !== 'query') return { ...base, state: parsed.kind }
    let query = parsed.query
    let found = await findProducts(this.db, query, page)
    let suggestion: string | null = null
    if (found.rows.length === 0 && page === 1) {
      const corrected = await correctQuery(this.db, query)
      const retry = corrected && (await findProducts(this.db, corrected, 1))
      if (corrected && retry && retry.rows.length > 0) {
        query = corrected
        found = retry
        suggestion = corrected.words.join(' ')
      }
    }
    const variants = await matchedVariants(
      this.db,
      found.rows.map((row) => row.id),
      query,
    )
    return {
      ...base,
      state: 'results',
      cut: parsed.query.cut,
      suggestion,
      hasNext: found.hasNext && page < SEARCH_LIMITS.maxPage,
      products: found.rows.map((row) => {
        // A variant's артикул typed whole: the hit is that variant, at its URL (decision 043).
        const variant = variants.get(row.id)
        const title = variant ? `${row.title}, ${variant.title}` : row.title
        return {
          id: row.id,
          title,
          url: variant ? `${row.urlFull}?v=${variant.id}` : row.urlFull,
          image: variant?.image ?? row.image,
          article: variant ? variant.article : row.article,
          price: variant ? variant.price : row.price,
          oldPrice: variant ? variant.oldPrice : row.oldPrice,
          availability: variant ? variant.availability : row.availability,
          titleParts: highlight(title, query),
        }
      }),
    }
  }

  /**
   * The back office: records of any kind and state by title words, артикул (any form) or the
   * beginning of their URL, at most MAX_RECORDS.
   */
  async records(text: string): Promise<FoundRecord[]> {
    const typed = text.trim()
    if ([...typed].length > SEARCH_LIMITS.maxChars) return []
    const found = new Map<number, FoundRecord>()
    const add = (r: { id: number; title: string; urlFull: string; typeId: string; published: number }) => {
      if (found.size < MAX_RECORDS && !found.has(r.id)) found.set(r.id, { ...r, published: Boolean(r.published) })
    }
    const path = urlPathOf(typed)
    if (path !== null) {
      const rows = await this.db
        .selectFrom('structure')
        .select(['id', 'title', 'urlFull', 'typeId', 'published'])
        .where('urlFull', '>=', path)
        .where('urlFull', '<', `${path}\u{10FFFF}`)
        .orderBy('urlFull')
        .limit(MAX_RECORDS)
        .execute()
      rows.forEach(add)
    }
    const parsed = parseSearch(typed)
    if (parsed.kind === 'query') (await findRecords(this.db, parsed.query, MAX_RECORDS)).forEach(add)
    return [...found.values()]
  }
}

/** A typed URL or path as the path records are stored by, or null when the text is not one. */
function urlPathOf(text: string): string | null {
  if (text.startsWith('/')) return text
  try {
    const url = new URL(text)
    return url.protocol === 'http:' || url.protocol === 'https:' ? decodeURIComponent(url.pathname) : null
  } catch {
    // Not a URL, or one with a broken %-escape
    return null
  }
}
