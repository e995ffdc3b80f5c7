// A product page's variant in its URL (docs/decisions/043-variants.md): `?v=<variantId>` chooses one
// of the product's variants; the canonical link stays the product. The catch-all page declares it
// beside a section's parameters, so the page cache keys a product's page by it.
import { SECTION_QUERY_NAMES } from './section-query'

export const VARIANT_PARAM = 'v'

/** Every parameter the catch-all page reads, sorted by name as the page cache sorts its keys. */
export const PAGE_QUERY_NAMES = [...SECTION_QUERY_NAMES, VARIANT_PARAM] as const

/**
 * The part of PAGE_QUERY_NAMES one screen of the catch-all reads: a section its list's parameters,
 * a product its variant, every other screen none (the content service redirects them away).
 */
export function screenQueryNames(typeId: string): readonly string[] {
  return typeId === 'section' ? SECTION_QUERY_NAMES : typeId === 'product' ? [VARIANT_PARAM] : []
}

/** The variant id a query string asks for: null when none, 'bad' when the value is not an id. */
export function variantParam(params: URLSearchParams): number | null | 'bad' {
  const all = params.getAll(VARIANT_PARAM)
  if (all.length === 0) return null
  return all.length === 1 && /^[1-9]\d{0,9}$/.test(all[0]) && Number(all[0]) <= 2_147_483_647 ? Number(all[0]) : 'bad'
}

/** A product page's URL with variant `id` chosen (null: the product itself). */
export function variantHref(url: string, id: number | null): string {
  return id === null ? url : `${url}?${VARIANT_PARAM}=${id}`
}
