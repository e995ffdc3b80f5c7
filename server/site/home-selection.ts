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

/**
 * Sections with products under the home record, depth first, until HOME_PRODUCTS are picked: the
 * first few of each from its list, a query per section picked (HOME_PRODUCTS at most).
 */
export async function homeSelection(db: Db, routes: RouteMap, counts: ProductCounts, homeId: number) {
  const sections = derivedFrom(routes, `home sections ${homeId}`, () => homeSections(routes, homeId))
  const known = await counts.of(sections.map((s) => s.id))
  const sectionEntries: RouteEntry[] = []
  const sizes: number[] = []
  let picked = 0
  for (const section of sections) {
    if (picked >= HOME_PRODUCTS) break
    const size = Math.min(known.get(section.id) ?? 0, HOME_PRODUCTS_PER_SECTION, HOME_PRODUCTS - picked)
    if (size === 0) continue
    sectionEntries.push(section)
    sizes.push(size)
    picked += size
  }
  const shown = await Promise.all(
    sectionEntries.map((section, i) => loadSectionProducts(db, section.id, DEFAULT_SECTION_QUERY, sizes[i])),
  )
  return { sectionEntries, shown }
}
