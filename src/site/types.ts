// The shapes pages render: what the server's content service returns and +data passes on.
// Kept small: the server builds these for every rendering of a page.
import type { PageReads } from './page-tags'
import type { SectionFacet, SectionQuery } from './section-query'

export type TypeId = 'index' | 'section' | 'product' | 'page'

export interface NavLink {
  title: string
  url: string
}

/** The index record that owns a URL: header and footer content. */
export interface SiteInfo {
  id: number
  url: string
  title: string
  logo: string | null
  tel: string | null
  telText: string | null
  description: string | null
  copyright: string | null
  menu: NavLink[]
  footerLinks: NavLink[]
  consentUrl: string | null
  policyUrl: string | null
  /** The page with the full cookie notice text (slug `cookies`), when published */
  cookiesUrl: string | null
  /** Version (hash) of the cookie notice's text: of that page, or of the notice's own words */
  cookieVersion?: string
}

export interface PageMeta {
  title: string
  description: string | null
  /** Media path or absolute URL of the share image */
  image: string | null
  robots: string | null
  canonicalPath: string
  /** Extra JSON-LD objects from the record */
  jsonLd: object[]
}

/** Whether a product can be bought now: «В наличии», «Под заказ», «Нет в наличии» */
export type Availability = 'in_stock' | 'on_order' | 'out_of_stock'

export interface ProductCard {
  id: number
  title: string
  url: string
  image: string | null
  article: string | null
  /** Kopecks (src/format/money.ts); null: «Цена по запросу» */
  price: number | null
  /** Kopecks, shown struck through only while above `price` */
  oldPrice: number | null
  availability: Availability
  /** It has variants (decision 043): `from` when their prices differ, so the price reads «от …» */
  variants?: 'same' | 'from'
}

export interface SectionCard {
  id: number
  title: string
  url: string
  image: string | null
  productCount: number
}

interface PageBase {
  id: number
  title: string
  url: string
  meta: PageMeta
  breadcrumbs: NavLink[]
}

export interface HomePage extends PageBase {
  typeId: 'index'
  description: string | null
  slides: { id: number; image: string; title: string | null }[]
  advantages: { id: number; image: string | null; title: string; description: string | null }[]
  /** The owner's featured products (at most 12); when there are none, `sections` shows a few of each */
  featured: ProductCard[]
  sections: (SectionCard & { products: ProductCard[] })[]
}

export interface SectionPage extends PageBase {
  typeId: 'section'
  content: string | null
  sections: SectionCard[]
  /** The products of this page of the section only */
  products: ProductCard[]
  listing: SectionListing
}

/** Which page of a section's products is shown, in which order, filtered how. */
export interface SectionListing {
  query: SectionQuery
  /** Products matching the filters, on all pages */
  total: number
  pageCount: number
  /** The filters by characteristic the section offers, with their values' counts (decision 042) */
  facets: SectionFacet[]
}

export interface ProductPage extends PageBase {
  typeId: 'product'
  /** The main image: the gallery's first */
  image: string | null
  article: string | null
  price: number | null
  oldPrice: number | null
  availability: Availability
  /** The brand */
  vendor: string | null
  description: string | null
  /** The gallery, in order (the first is `image`) */
  images: { image: string; alt: string | null }[]
  /** The characteristics, in order; `group` heads the rows up to the next group */
  properties: { group: string | null; name: string; value: string; unit: string | null }[]
  /** Its variants, in order (decision 043); empty for a product without */
  variants: ProductVariantView[]
  /** The variant the URL chose (`?v=<id>`): price, old price, availability, артикул and image above are its */
  variantId: number | null
}

/** One variant of a product as its page offers it */
export interface ProductVariantView {
  id: number
  /** The combination: «Синий, 160×230» */
  title: string
  article: string | null
  price: number | null
  oldPrice: number | null
  availability: Availability
  image: string | null
  /** Its option values (colour, size), as the owner names them */
  options: { name: string; value: string }[]
}

export interface TextPage extends PageBase {
  typeId: 'page'
  content: string | null
}

export type PageData = HomePage | SectionPage | ProductPage | TextPage

export type PageResolution =
  /** `site`: the index record that owns the URL, whose header and footer the page shows */
  | { kind: 'page'; page: PageData; status: number; site: SiteInfo | null }
  /** `search`: the query string to redirect with; without it the request's own goes along */
  | { kind: 'redirect'; url: string; search?: string }
  | { kind: 'missing' }
  | { kind: 'gone' }

/**
 * What pages may ask of the server, passed in pageContext (server-only).
 * The server implements it over the database; pages never import server/.
 */
export interface ContentSource {
  /**
   * The catch-all page at a URL with its site, or what to answer instead: the one content call of
   * a rendering of that page, on Vike's path (pages/cms/+data.ts) and on the direct path alike.
   * `search`: the request's query string ('?…', '' or null), for pages that read parameters;
   * `reads`: collects what the answer depends on, for the page cache (src/site/page-tags.ts)
   */
  pageOf(urlPathname: string, search?: string | null, reads?: PageReads): Promise<PageResolution>
  /** The site of a URL, for the pages that are not the catch-all (the search, the lead form, errors) */
  getSite(urlPathname: string): Promise<SiteInfo | null>
  /** Settings that are safe for the browser */
  readonly publicSettings: PublicSettings
}

export interface PublicSettings {
  /** Origin of the canonical site, no trailing slash */
  publicUrl: string
  /** Origin that serves /media/ ('' = same origin) */
  mediaUrl: string
  metrikaId: number | null
  /** The counter's script, loaded only after the visitor allows analytics */
  metrikaTagUrl: string
}
