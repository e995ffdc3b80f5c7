// A section page's query parameters (docs/decisions/031-sections-and-scale.md): which page of its
// products, their order and the filters. Read on the server (validated, capped, one canonical
// spelling) and written by the page's links and form, so both sides agree on every name and value.

/** Products on one page of a section */
export const SECTION_PAGE_SIZE = 24
/** The highest page number a section answers (24,000 products); beyond it, as beyond the last page: 404 */
export const MAX_SECTION_PAGE = 1000
/** The highest price a filter takes, in whole rubles */
export const MAX_FILTER_PRICE = 999_999_999

export const SECTION_SORTS = ['price', 'price-desc', 'name'] as const
export type SectionSort = (typeof SECTION_SORTS)[number]

export const AVAILABILITIES = ['in_stock', 'on_order', 'out_of_stock'] as const
export type AvailabilityFilter = (typeof AVAILABILITIES)[number]

/**
 * The parameters a section page reads, in their canonical order: sorted by name, as the page
 * cache sorts its keys (server/site/page-cache.ts), so the URL a page is rendered from is its
 * canonical one. The page cache keys by these and no others.
 */
export const SECTION_QUERY_NAMES = ['avail', 'max', 'min', 'page', 'sort'] as const

export interface SectionQuery {
  /** 1-based */
  readonly page: number
  /** null: the section's own order (the back office's) */
  readonly sort: SectionSort | null
  readonly avail: AvailabilityFilter | null
  readonly min: number | null
  readonly max: number | null
}

export const DEFAULT_SECTION_QUERY: SectionQuery = Object.freeze({
  page: 1,
  sort: null,
  avail: null,
  min: null,
  max: null,
})

/** The labels of the page's controls (Russian UI) */
export const SORT_LABELS: Readonly<Record<SectionSort | 'default', string>> = {
  default: 'По умолчанию',
  price: 'По цене ↑',
  'price-desc': 'По цене ↓',
  name: 'По названию',
}
export const AVAILABILITY_LABELS: Readonly<Record<AvailabilityFilter, string>> = {
  in_stock: 'В наличии',
  on_order: 'Под заказ',
  out_of_stock: 'Нет в наличии',
}

function wholeNumber(value: string | null, max: number): number | null {
  if (value === null || !/^\d{1,10}$/.test(value.trim())) return null
  const n = Number(value.trim())
  return n <= max ? n : null
}

function oneOf<T extends string>(list: readonly T[], value: string | null): T | null {
  return value !== null && (list as readonly string[]).includes(value) ? (value as T) : null
}

/**
 * The query a section page shows for these parameters. A value that is not one of ours is
 * dropped (the page then redirects to the canonical spelling), a repeated name counts once (its
 * first value), a minimum above the maximum is swapped.
 */
export function parseSectionQuery(params: URLSearchParams): SectionQuery {
  const pageText = params.get('page')?.trim() ?? null
  const page = wholeNumber(pageText, MAX_SECTION_PAGE)
  let min = wholeNumber(params.get('min'), MAX_FILTER_PRICE)
  let max = wholeNumber(params.get('max'), MAX_FILTER_PRICE)
  if (min !== null && max !== null && min > max) [min, max] = [max, min]
  return {
    // Not a number: page 1. A number past the cap: past the last page (404). Page 0: page 1.
    page: page !== null ? Math.max(page, 1) : pageText !== null && /^\d+$/.test(pageText) ? MAX_SECTION_PAGE + 1 : 1,
    sort: oneOf(SECTION_SORTS, params.get('sort')),
    avail: oneOf(AVAILABILITIES, params.get('avail')),
    min: min === 0 ? null : min,
    max,
  }
}

/** The canonical query string of a section query ('' or '?…'): defaults left out, fixed order. */
export function sectionSearch(query: SectionQuery): string {
  const params = new URLSearchParams()
  if (query.avail) params.set('avail', query.avail)
  if (query.max !== null) params.set('max', String(query.max))
  if (query.min !== null) params.set('min', String(query.min))
  if (query.page > 1) params.set('page', String(query.page))
  if (query.sort) params.set('sort', query.sort)
  const text = params.toString()
  return text ? `?${text}` : ''
}

/** The href of the same section with some of the query changed (page 1 unless `page` is given). */
export function sectionHref(url: string, query: SectionQuery, change: Partial<SectionQuery>): string {
  return url + sectionSearch({ ...query, page: 1, ...change })
}

/** Whether the query narrows or reorders the section's products (not only picks a page). */
export function isFilteredOrSorted(query: SectionQuery): boolean {
  return query.sort !== null || query.avail !== null || query.min !== null || query.max !== null
}

/**
 * Where a request for these parameters belongs: null when its section parameters are spelled
 * canonically, else the query string to redirect to (the canonical section parameters, then every
 * other parameter as it came: tracking tags survive). `names` are the parameters the page reads.
 */
export function canonicalRedirect(search: string, canonical: string, names: readonly string[]): string | null {
  const params = new URLSearchParams(search)
  const declared = [...params].filter(([name]) => names.includes(name))
  if (new URLSearchParams(declared).toString() === canonical.replace(/^\?/, '')) return null
  const others = new URLSearchParams([...params].filter(([name]) => !names.includes(name))).toString()
  const joined = [canonical.replace(/^\?/, ''), others].filter(Boolean).join('&')
  return joined ? `?${joined}` : ''
}
