// The home page's products without featured ones (decision 031): the first few of each section
// under the home record that holds products, depth first in tree order, up to HOME_PRODUCTS,
// whatever the catalogue's size. The sections come from the route map; their counts from
// ProductCounts and their first products from their lists (the map holds no products).
import type { Db } from '../data/db'
import { derivedFrom, type RouteEntry, type RouteMap } from '../content/route-map'
import { loadSectionProducts } from '../catalogue/products/listing-store'
import { DEFAULT_SECTION_QUERY } from '../../src/site/section-query'
import type { ProductCounts } from './product-counts'

/** The home page's products, whatever the catalogue's size (decision 031) */
export const HOME_PRODUCTS = 12
/** Without featured products: the first few of each section, in tree order, up to HOME_PRODUCTS */
const HOME_PRODUCTS_PER_SECTION = 4

/** The sections under the home record, depth first in tree order (a nested index record is another landing). */
function homeSections(routes: RouteMap, homeId: number): RouteEntry[] {
  const out: RouteEntry[] = []
  const walk = (id: number, depth: number) => {
    if (depth > 8) return
    for (const child of routes.children.get(id) ?? []) {
      if (child.typeId !== 'section') continue
      out.push(child)
      walk(child.id, depth + 1)
    }
  }
  walk(homeId, 1)
  return out
}

/** Sections whose counts are asked together while the home page looks for its products */
const SECTIONS_PER_ROUND = 8

/**
 * Sections with products under the home record, depth first, until HOME_PRODUCTS are picked: the
 * sections' counts a few at a time (only until enough are found: a count reads its section's list),
 * then the first few products of each section picked, a query each (HOME_PRODUCTS at most).
 */
export async function homeSelection(db: Db, routes: RouteMap, counts: ProductCounts, homeId: number) {
  const sections = derivedFrom(routes, `home sections ${homeId}`, () => homeSections(routes, homeId))
  const sectionEntries: RouteEntry[] = []
  const sizes: number[] = []
  let picked = 0
  for (let from = 0; from < sections.length && picked < HOME_PRODUCTS; from += SECTIONS_PER_ROUND) {
    const round = sections.slice(from, from + SECTIONS_PER_ROUND)
    const known = await counts.of(round.map((s) => s.id))
    for (const section of round) {
      const size = Math.min(known.get(section.id) ?? 0, HOME_PRODUCTS_PER_SECTION, HOME_PRODUCTS - picked)
      if (size === 0) continue
      sectionEntries.push(section)
      sizes.push(size)
      picked += size
    }
  }
  const shown = await Promise.all(
    sectionEntries.map((section, i) => loadSectionProducts(db, section.id, DEFAULT_SECTION_QUERY, sizes[i])),
  )
  return { sectionEntries, shown }
}
