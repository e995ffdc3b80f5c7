// A section page's query parameters (docs/decisions/031-sections-and-scale.md): which page of its
// products, their order and the filters, by characteristic too (`f.<id>=<value>`, repeatable, and
// `r.<id>=<min>-<max>`: docs/decisions/042-characteristics-and-filters.md). Read on the server (validated, capped, one canonical
// spelling) and written by the page's links and form, so both sides agree on every name and value.

import { compareNames, isDeclaredName } from './query-names'

/** Products on one page of a section */
export const SECTION_PAGE_SIZE = 24
/** The highest page number a section answers (24,000 products); beyond it, as beyond the last page: 404 */
export const MAX_SECTION_PAGE = 1000
/** The highest price a filter takes, in whole rubles */
export const MAX_FILTER_PRICE = 999_999_999

export const SECTION_SORTS = ['price', 'price-desc', 'name'] as const
export type SectionSort = (typeof SECTION_SORTS)[number]

/** Characteristics filtered at once, values a characteristic is filtered by, and a value's length */
export const MAX_FILTERED_CHARACTERISTICS = 4
export const MAX_FILTER_VALUES = 10
export const MAX_FILTER_VALUE_LENGTH = 200

export const AVAILABILITIES = ['in_stock', 'on_order', 'out_of_stock'] as const
export type AvailabilityFilter = (typeof AVAILABILITIES)[number]

/**
 * The parameters a section page reads, in their canonical order: sorted by name, as the page
 * cache sorts its keys (server/site/page-cache.ts), so the URL a page is rendered from is its
 * canonical one. The page cache keys by these and no others.
 */
export const SECTION_QUERY_NAMES = ['avail', 'f.', 'max', 'min', 'page', 'r.', 'sort'] as const

/** Products whose value of characteristic `id` is one of `values` (sorted, each once). */
export interface ValueFilter {
  readonly id: number
  readonly values: readonly string[]
  /** The characteristic is the product's brand (its values read from the product row), set by keepKnownFilters */
  readonly brand?: true
}

/** Products whose value of characteristic `id` is a number within [min, max] (either side open). */
export interface RangeFilter {
  readonly id: number
  readonly min: number | null
  readonly max: number | null
}

/** A section's filter by a characteristic, as the page offers it (server/catalogue/products/facet-store.ts). */
export interface SectionFacet {
  readonly id: number
  readonly title: string
  readonly unit: string | null
  readonly kind: 'values' | 'range'
  /** Values: the commonest under the other filters with how many products each (the chosen ones always) */
  readonly values: readonly { readonly value: string; readonly count: number }[]
  /** Range: the lowest and highest number under the other filters */
  readonly min: number | null
  readonly max: number | null
}

export interface SectionQuery {
  /** 1-based */
  readonly page: number
  /** null: the section's own order (the back office's) */
  readonly sort: SectionSort | null
  readonly avail: AvailabilityFilter | null
  readonly min: number | null
  readonly max: number | null
  /** By characteristic, in id order */
  readonly values: readonly ValueFilter[]
  readonly ranges: readonly RangeFilter[]
}

export const DEFAULT_SECTION_QUERY: SectionQuery = Object.freeze({
  page: 1,
  sort: null,
  avail: null,
  min: null,
  max: null,
  values: [],
  ranges: [],
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

/** A range's bound: digits with a point or a comma before at most 6 decimals; null for anything else. */
function bound(text: string | undefined): number | null {
  const t = (text ?? '').trim()
  return /^\d{1,12}([.,]\d{1,6})?$/.test(t) ? Number(t.replace(',', '.')) : null
}

/**
 * The filters by characteristic among the parameters: `f.<id>` (each value once, sorted, empty ones
 * dropped) and `r.<id>` (`min-max`, either side empty; or two values, as the form's two fields of
 * one name send them), at most MAX_FILTERED_CHARACTERISTICS, the lowest ids first.
 */
function parseCharacteristicFilters(params: URLSearchParams) {
  const values = new Map<number, Set<string>>()
  const ranges = new Map<number, string[]>()
  for (const [name, value] of params) {
    const m = /^([fr])\.([1-9]\d{0,9})$/.exec(name)
    if (!m) continue
    const id = Number(m[2])
    if (m[1] === 'r') ranges.set(id, [...(ranges.get(id) ?? []), value])
    else if (value.trim() !== '' && value.length <= MAX_FILTER_VALUE_LENGTH)
      values.set(id, (values.get(id) ?? new Set()).add(value))
  }
  const parsed: (ValueFilter | RangeFilter)[] = [...values].map(([id, set]) => ({
    id,
    values: [...set].sort(compareNames).slice(0, MAX_FILTER_VALUES),
  }))
  for (const [id, raw] of ranges) {
    if (values.has(id)) continue
    const [lo, hi] = raw.length === 1 ? raw[0].split('-', 2) : raw
    let min = bound(lo)
    let max = bound(hi)
    if (min !== null && max !== null && min > max) [min, max] = [max, min]
    if (min !== null || max !== null) parsed.push({ id, min, max })
  }
  const kept = parsed.sort((a, b) => a.id - b.id).slice(0, MAX_FILTERED_CHARACTERISTICS)
  return {
    values: kept.filter((f): f is ValueFilter => 'values' in f),
    ranges: kept.filter((f): f is RangeFilter => !('values' in f)),
  }
}

/** The query with only the filters of characteristics that are filters of that kind (the owner's «Характеристики»). */
export function keepKnownFilters(
  query: SectionQuery,
  filters: readonly { readonly id: number; readonly filter: string; readonly source?: string }[],
): SectionQuery {
  const kind = new Map(filters.map((f) => [f.id, f.filter]))
  const brands = new Set(filters.filter((f) => f.source === 'vendor').map((f) => f.id))
  const values = query.values
    .filter((f) => kind.get(f.id) === 'values')
    .map((f): ValueFilter => (brands.has(f.id) ? { ...f, brand: true } : f))
  const ranges = query.ranges.filter((f) => kind.get(f.id) === 'range')
  return values.length === query.values.length && ranges.length === query.ranges.length && brands.size === 0
    ? query
    : { ...query, values, ranges }
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
    ...parseCharacteristicFilters(params),
  }
}

/** The canonical query string of a section query ('' or '?…'): defaults left out, fixed order. */
export function sectionSearch(query: SectionQuery): string {
  const pairs: [string, string][] = []
  if (query.avail) pairs.push(['avail', query.avail])
  if (query.max !== null) pairs.push(['max', String(query.max)])
  if (query.min !== null) pairs.push(['min', String(query.min)])
  if (query.page > 1) pairs.push(['page', String(query.page)])
  if (query.sort) pairs.push(['sort', query.sort])
  for (const f of query.values) for (const value of f.values) pairs.push([`f.${f.id}`, value])
  for (const r of query.ranges) pairs.push([`r.${r.id}`, `${r.min ?? ''}-${r.max ?? ''}`])
  // Names in code unit order (`f.12` before `f.3`), as the page cache sorts its keys; a stable sort
  // keeps a name's values in theirs.
  const text = new URLSearchParams(pairs.sort(([a], [b]) => compareNames(a, b))).toString()
  return text ? `?${text}` : ''
}

/** The href of the same section with some of the query changed (page 1 unless `page` is given). */
export function sectionHref(url: string, query: SectionQuery, change: Partial<SectionQuery>): string {
  return url + sectionSearch({ ...query, page: 1, ...change })
}

/** Whether the query narrows or reorders the section's products (not only picks a page). */
export function isFilteredOrSorted(query: SectionQuery): boolean {
  return (
    query.sort !== null ||
    query.avail !== null ||
    query.min !== null ||
    query.max !== null ||
    query.values.length > 0 ||
    query.ranges.length > 0
  )
}

/**
 * Where a request for these parameters belongs: null when its section parameters are spelled
 * canonically, else the query string to redirect to (the canonical section parameters, then every
 * other parameter as it came: tracking tags survive). `names` are the parameters the page reads.
 */
export function canonicalRedirect(search: string, canonical: string, names: readonly string[]): string | null {
  const params = new URLSearchParams(search)
  const declared = [...params].filter(([name]) => isDeclaredName(names, name))
  if (new URLSearchParams(declared).toString() === canonical.replace(/^\?/, '')) return null
  const others = new URLSearchParams([...params].filter(([name]) => !isDeclaredName(names, name))).toString()
  const joined = [canonical.replace(/^\?/, ''), others].filter(Boolean).join('&')
  return joined ? `?${joined}` : ''
}
