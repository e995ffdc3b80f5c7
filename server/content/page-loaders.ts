// One loader per screen: the data a page of each typeId shows, from its route entry. Reads go
// through the structure store; the tree comes from the route map, never a query of its own.
import type { Db } from '../data/db'
import {
  loadHomeLists,
  loadMetaImages,
  loadPageRecord,
  loadProductCardParts,
  loadProductParts,
  type PageRecord,
} from './structure-store'
import { loadProductDetails } from './catalogue-store'
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
import { breadcrumbs, derivedFrom, descendants, publicChildren, type RouteEntry, type RouteMap } from './route-map'

export const TYPE_IDS: readonly TypeId[] = ['index', 'section', 'product', 'page']
const HOME_PRODUCTS_PER_SECTION = 8

export async function loadPage(db: Db, routes: RouteMap, entry: RouteEntry): Promise<PageData | null> {
  const record = await loadPageRecord(db, entry.id)
  if (!record) return null
  const base = { id: record.id, title: record.title, url: record.urlFull, breadcrumbs: breadcrumbs(routes, entry) }
  const meta = pageMeta(record)
  switch (entry.typeId as TypeId) {
    case 'index': {
      const home = await loadHome(db, routes, entry)
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
      const sections = await sectionCards(db, routes, publicChildren(routes, entry.id, 'section'))
      const products = await productCards(db, publicChildren(routes, entry.id, 'product'))
      return {
        ...base,
        typeId: 'section',
        content: record.content,
        sections,
        products,
        meta: meta({ image: products[0]?.image ?? sections[0]?.image }),
      } satisfies SectionPage
    }
    case 'product': {
      const [[product], details] = await Promise.all([
        loadProductParts(db, [entry.id]),
        loadProductDetails(db, entry.id),
      ])
      return {
        ...base,
        typeId: 'product',
        image: product?.image ?? null,
        article: product?.article ?? null,
        price: product?.price ?? null,
        oldPrice: product?.oldPrice ?? null,
        availability: product?.availability ?? 'in_stock',
        vendor: product?.vendor ?? null,
        description: product?.description ?? null,
        ...details,
        meta: meta({ description: product?.description, image: product?.image }),
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

/** The catalogue tree for the home page: sections holding products, in tree order. */
async function loadHome(db: Db, routes: RouteMap, entry: RouteEntry) {
  const { slides, advantages } = await loadHomeLists(db, entry.id)
  const { sectionEntries, shown } = derivedFrom(routes, `home ${entry.id}`, () => {
    const withProducts = descendants(routes, entry.id, (e) => e.typeId === 'section').filter(
      (s) => publicChildren(routes, s.id, 'product').length > 0,
    )
    return {
      sectionEntries: withProducts,
      shown: withProducts.map((s) => publicChildren(routes, s.id, 'product').slice(0, HOME_PRODUCTS_PER_SECTION)),
    }
  })
  const cards = await sectionCards(db, routes, sectionEntries)
  // Every section's products in one query, not one per section.
  const products = await productCards(db, shown.flat())
  let next = 0
  const sections = cards.map((card, i) => ({ ...card, products: products.slice(next, (next += shown[i].length)) }))
  return { slides, advantages, sections }
}

async function productCards(db: Db, entries: readonly RouteEntry[]): Promise<ProductCard[]> {
  const parts = await loadProductCardParts(
    db,
    entries.map((e) => e.id),
  )
  const byId = new Map(parts.map((p) => [p.structureId, p]))
  return entries.map((e) => {
    const part = byId.get(e.id)
    return {
      id: e.id,
      title: e.title,
      url: e.urlFull,
      image: part?.image ?? null,
      article: part?.article ?? null,
      price: part?.price ?? null,
      oldPrice: part?.oldPrice ?? null,
      availability: part?.availability ?? 'in_stock',
    }
  })
}

async function sectionCards(db: Db, routes: RouteMap, entries: readonly RouteEntry[]): Promise<SectionCard[]> {
  const images = await loadMetaImages(
    db,
    entries.map((e) => e.id),
  )
  return entries.map((e) => ({
    id: e.id,
    title: e.title,
    url: e.urlFull,
    image: images.get(e.id) ?? null,
    productCount: publicChildren(routes, e.id, 'product').length,
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
