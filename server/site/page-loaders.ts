// One loader per screen: the data a page of each typeId shows, from its route entry. Reads go
// through the structure store's page reads and the product store; the tree of sections comes from
// the route map, never a query of its own, and a section's products from its index (the map holds
// no products: its count from ProductCounts, its first cards from its list). Each loader collects what it read (`reads`, src/site/page-tags.ts):
// the page cache drops the page when a write changes any of it.
import type { Db } from '../data/db'
import { loadHomeLists, loadMetaImages, loadPageRecord, type PageRecord } from '../content/page-reads'
import {
  loadProductCardParts,
  loadProductDetails,
  loadProductPageRecord,
  loadProductVariants,
} from '../catalogue/products/product-store'
import type {
  HomePage,
  PageData,
  PageMeta,
  ProductCard,
  ProductPage,
  SectionCard,
  SectionPage,
  TextPage,
  TypeId,
} from '../../src/site/types'
import { breadcrumbs, publicChildren, type RouteEntry, type RouteMap } from '../content/route-map'
import type { ProductCounts } from './product-counts'
import { HOME_PRODUCTS, homeSelection } from './home-selection'
import {
  countSectionProducts,
  loadFeaturedProducts,
  loadSectionProducts,
  type FeaturedProduct,
} from '../catalogue/products/listing-store'
import {
  DEFAULT_SECTION_QUERY,
  isFilteredOrSorted,
  SECTION_PAGE_SIZE,
  sectionSearch,
  type SectionQuery,
} from '../../src/site/section-query'
import { loadSectionFacets } from '../catalogue/products/facet-store'
import { loadFilterCharacteristics } from '../catalogue/characteristics/characteristic-store'
import { childrenTag, FEATURED_TAG, listingTag, TREE_TAG, type PageReads } from '../../src/site/page-tags'

export const TYPE_IDS: readonly TypeId[] = ['index', 'section', 'product', 'page']

/** The page of `entry`; null when there is none (a section's page past its last). */
export async function loadPage(
  db: Db,
  routes: RouteMap,
  counts: ProductCounts,
  entry: RouteEntry,
  sectionQuery: SectionQuery | null,
  reads: PageReads,
  variantId: number | null = null,
): Promise<PageData | null> {
  reads.record(entry.id)
  // A product's page reads its record and its product row in one statement.
  const [record, details, variants] =
    entry.typeId === 'product'
      ? await Promise.all([
          loadProductPageRecord(db, entry.id),
          loadProductDetails(db, entry.id),
          loadProductVariants(db, entry.id),
        ])
      : [await loadPageRecord(db, entry.id), null, []]
  if (!record) return null
  const base = { id: record.id, title: record.title, url: record.urlFull, breadcrumbs: breadcrumbs(routes, entry) }
  const meta = pageMeta(record)
  switch (entry.typeId as TypeId) {
    case 'index': {
      const home = await loadHome(db, routes, counts, entry, reads)
      // The index part came with the route map (the spec's structure load): no second query.
      const site = routes.indexes.find((i) => i.id === entry.id)?.index
      return {
        ...base,
        typeId: 'index',
        ...home,
        description: site?.description ?? null,
        meta: meta({ description: site?.description, image: home.slides[0]?.image ?? site?.logo }),
      } satisfies HomePage
    }
    case 'section': {
      const query = sectionQuery ?? DEFAULT_SECTION_QUERY
      // Any product under it, its data or its place, may change which ones a page of it lists.
      reads.add(listingTag(entry.id))
      // Unfiltered, the count kept for the section (ProductCounts); filtered, one indexed count of its rows.
      // The count, the page's rows and the filters' counts are independent: asked together (on
      // PostgreSQL on connections of their own), a page past the last is read and dropped.
      const [total, listed, facets] = await Promise.all([
        isFilteredOrSorted(query)
          ? countSectionProducts(db, entry.id, query)
          : counts.of([entry.id]).then((known) => known.get(entry.id)!),
        loadSectionProducts(db, entry.id, query, SECTION_PAGE_SIZE),
        // The owner's filters change every page (decision 042): no tag of their own.
        loadFilterCharacteristics(db).then((filters) => loadSectionFacets(db, entry.id, query, filters)),
      ])
      const pageCount = Math.max(1, Math.ceil(total / SECTION_PAGE_SIZE))
      if (query.page > pageCount) return null
      const sections = await sectionCards(db, counts, publicChildren(routes, entry.id, 'section'), reads)
      const products = await productCards(db, listed, reads)
      const own = meta({ image: products[0]?.image ?? sections[0]?.image })
      return {
        ...base,
        typeId: 'section',
        content: record.content,
        sections,
        products,
        listing: { query, total, pageCount, facets },
        // Each page of the plain list is its own page; a sorted or filtered list is the section's.
        meta: {
          ...own,
          title: query.page > 1 ? `${own.title} — страница ${query.page}` : own.title,
          canonicalPath: isFilteredOrSorted(query)
            ? record.urlFull
            : record.urlFull + sectionSearch({ ...DEFAULT_SECTION_QUERY, page: query.page }),
        },
      } satisfies SectionPage
    }
    case 'product': {
      // No product row (a record typed product without one): the page shows none of its fields.
      const row = record as Partial<NonNullable<Awaited<ReturnType<typeof loadProductPageRecord>>>>
      const own = row.availability == null ? null : row
      // The chosen variant's price, availability, артикул and picture (where it has one) are shown.
      const chosen = variants.find((v) => v.id === variantId) ?? null
      const image = chosen?.image ?? own?.image ?? null
      return {
        ...base,
        typeId: 'product',
        image,
        article: chosen ? (chosen.article ?? own?.article ?? null) : (own?.article ?? null),
        price: chosen ? chosen.price : (own?.price ?? null),
        oldPrice: chosen ? chosen.oldPrice : (own?.oldPrice ?? null),
        availability: chosen?.availability ?? own?.availability ?? 'in_stock',
        vendor: own?.vendor ?? null,
        description: own?.description ?? null,
        ...details!,
        images: chosen?.image
          ? [{ image: chosen.image, alt: null }, ...details!.images.filter((i) => i.image !== chosen.image)]
          : details!.images,
        variants,
        variantId: chosen?.id ?? null,
        meta: meta({ description: own?.description, image: own?.image }),
      } satisfies ProductPage
    }
    case 'page':
      return { ...base, typeId: 'page', content: record.content, meta: meta({}) } satisfies TextPage
  }
}

/** The page's meta: its own fields first, else what the screen shows (its text, its first image). */
function pageMeta(record: PageRecord) {
  return (fallback: { description?: string | null; image?: string | null }): PageMeta => ({
    title: record.metaTitle || record.title,
    description: record.metaDescription || excerpt(fallback.description ?? record.content),
    image: record.metaImage || fallback.image || null,
    robots: record.metaRobots,
    canonicalPath: record.urlFull,
    jsonLd: parseJsonLd(record.metaJsonLd),
  })
}

/**
 * The home page's products, bounded whatever the catalogue's size: the featured ones (up to
 * HOME_PRODUCTS), else the first few of each section holding products, in tree order, up to the
 * same total.
 */
async function loadHome(db: Db, routes: RouteMap, counts: ProductCounts, entry: RouteEntry, reads: PageReads) {
  reads.add(FEATURED_TAG)
  const [{ slides, advantages }, featuredRows] = await Promise.all([
    loadHomeLists(db, entry.id),
    loadFeaturedProducts(db, HOME_PRODUCTS),
  ])
  if (featuredRows.length > 0) {
    return { slides, advantages, featured: cardsOf(featuredRows, reads), sections: [] }
  }
  // Which sections and products it picks depends on where every product is.
  reads.add(TREE_TAG)
  const { sectionEntries, shown } = await homeSelection(db, routes, counts, entry.id)
  const cards = await sectionCards(db, counts, sectionEntries, reads)
  const products = await productCards(db, shown.flat(), reads)
  let next = 0
  const sections = cards.map((card, i) => ({ ...card, products: products.slice(next, (next += shown[i].length)) }))
  return { slides, advantages, featured: [], sections }
}

/** The cards of products read with their card fields (the featured ones). */
function cardsOf(
  rows: readonly (FeaturedProduct & { variantPrices?: number | string | bigint | null })[],
  reads: PageReads,
): ProductCard[] {
  return rows.map((row) => {
    reads.record(row.id)
    return {
      id: row.id,
      title: row.title,
      url: row.urlFull,
      image: row.image ?? null,
      article: row.article ?? null,
      price: row.price ?? null,
      oldPrice: row.oldPrice ?? null,
      availability: row.availability ?? 'in_stock',
      ...(row.variantPrices ? { variants: Number(row.variantPrices) > 1 ? ('from' as const) : ('same' as const) } : {}),
    }
  })
}

/** The cards of products known by their route entries: their card fields in one query. */
async function productCards(
  db: Db,
  entries: readonly Pick<RouteEntry, 'id' | 'title' | 'urlFull'>[],
  reads: PageReads,
): Promise<ProductCard[]> {
  const parts = await loadProductCardParts(
    db,
    entries.map((e) => e.id),
  )
  const byId = new Map(parts.map((p) => [p.structureId, p]))
  const none = { image: null, article: null, price: null, oldPrice: null, availability: 'in_stock' } as const
  return cardsOf(
    entries.map((e) => ({ ...none, ...byId.get(e.id), id: e.id, title: e.title, urlFull: e.urlFull })),
    reads,
  )
}

async function sectionCards(
  db: Db,
  counts: ProductCounts,
  entries: readonly RouteEntry[],
  reads: PageReads,
): Promise<SectionCard[]> {
  for (const e of entries) {
    reads.record(e.id)
    reads.add(childrenTag(e.id))
  }
  const ids = entries.map((e) => e.id)
  const [images, productCounts] = await Promise.all([loadMetaImages(db, ids), counts.of(ids)])
  return entries.map((e) => ({
    id: e.id,
    title: e.title,
    url: e.urlFull,
    image: images.get(e.id) ?? null,
    productCount: productCounts.get(e.id) ?? 0,
  }))
}

function excerpt(text: string | null | undefined): string | null {
  if (!text) return null
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > 200 ? `${flat.slice(0, 197).replace(/\s+\S*$/, '')}…` : flat
}

function parseJsonLd(text: string | null): object[] {
  if (!text) return []
  try {
    const value: unknown = JSON.parse(text)
    const list = Array.isArray(value) ? value : [value]
    return list.filter((v): v is object => typeof v === 'object' && v !== null)
  } catch {
    return []
  }
}
