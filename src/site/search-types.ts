// The shapes of the catalogue search page (/poisk): what the server's search returns and +data
// passes on. The search itself runs on the server (server/catalogue/), never in the browser.
import type { ProductCard } from './types'

/** A piece of a title: the words a query matched are marked */
export interface TitlePart {
  text: string
  mark: boolean
}

export interface SearchCard extends ProductCard {
  titleParts: TitlePart[]
}

export interface SearchAnswer {
  /** The query as typed (trimmed) */
  query: string
  /** empty: no query, the form only; too_long: refused unsearched; results: searched */
  state: 'empty' | 'too_long' | 'results'
  page: number
  products: SearchCard[]
  hasNext: boolean
  /** The corrected query, when the typed one found nothing and the correction finds something */
  suggestion: string | null
  /** Words past the limit were left out */
  cut: boolean
}

/** What the search page may ask of the server (pageContext, server-only). */
export interface SearchSource {
  find(text: string, page: number): Promise<SearchAnswer>
}
