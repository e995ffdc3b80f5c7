// Page data for the SSR pages: resolves a URL to a page (or a redirect, 404, 410) through the
// route map, and the site info of the layout. Handed to Vike's renderPage() in pageContext.
import type { Db } from '../data/db'
import { isGoneUrl } from '../content/structure-store'
import { entryAt, entryById } from '../content/route-rows'
import { ProductCounts } from './product-counts'
import { movedTarget } from '../content/moved-urls'
import type { ContentSource, PageResolution, PublicSettings, SiteInfo, TypeId } from '../../src/site/types'
import { isPrefixOf, normalizePath, toggleTrailingSlash } from '../../src/site/url'
import {
  canonicalRedirect,
  keepKnownFilters,
  MAX_SECTION_PAGE,
  parseSectionQuery,
  sectionSearch,
} from '../../src/site/section-query'
import { PAGE_QUERY_NAMES, variantHref, variantParam } from '../../src/site/variant-query'
import { loadPage, TYPE_IDS } from './page-loaders'
import { loadFilterCharacteristics } from '../catalogue/characteristics/characteristic-store'
import { derivedFrom, RouteMapCache, type RouteEntry, type RouteMap } from '../content/route-map'
import { cookieNoticeVersion, fillOperator, type OperatorValues } from '../content/documents'
import { buildSiteInfo } from './site-info'
import { isPublic } from '../content/visibility'
import { PageReads, TREE_TAG, type PagesChanged } from '../../src/site/page-tags'

/**
 * How up to date a read of the route map must be: 'fresh' waits for other processes' writes
 * noticed so far to be read in (what a page shows); 'latest' takes the map at hand, at most a
 * version check and a patch behind (RouteMapCache.latest), and never waits for them.
 */
export type Freshness = 'fresh' | 'latest'

interface ContentServiceOptions {
  ttlSeconds: number
  publicSettings: PublicSettings
  /** The clock of the route map's age and version check (tests drive it) */
  now?: () => number
  /** The operator's details the privacy documents name (docs/decisions/027-personal-data.md) */
  operator?: () => Promise<OperatorValues>
}

export class ContentService implements ContentSource {
  private readonly routeMap: RouteMapCache
  /** How many public products each section shows, kept until a write changes it */
  private readonly counts: ProductCounts
  #publicSettings: PublicSettings
  private readonly operator: () => Promise<OperatorValues>

  constructor(
    private readonly db: Db,
    options: ContentServiceOptions,
  ) {
    this.routeMap = new RouteMapCache(db, options.ttlSeconds, options.now)
    this.counts = new ProductCounts(db)
    this.routeMap.onInvalidate((changed) => this.counts.forget(changed))
    this.#publicSettings = Object.freeze({ ...options.publicSettings })
    this.operator = options.operator ?? (async () => ({ name: '', inn: '', address: '' }))
  }

  /** The site's address and counter every page is rendered with (the settings in effect). */
  get publicSettings(): PublicSettings {
    return this.#publicSettings
  }

  /**
   * New settings from the back office's «Настройки» (docs/decisions/039-settings.md): every page of
   * this process is rendered anew with them. Each process calls it when it notices the change.
   */
  setPublicSettings(settings: PublicSettings): void {
    this.#publicSettings = Object.freeze({ ...settings })
    this.routeMap.invalidate('every page')
  }

  /**
   * A document's text with the operator's details filled in (`{{оператор}}`…), read once per
   * route map: saving the details is a content write, which makes a new one.
   */
  async fillDocument(text: string, freshness: Freshness = 'fresh'): Promise<string> {
    if (!text.includes('{{')) return text
    const routes = await this.routes(freshness)
    const operator = derivedFrom(routes, 'operator', () =>
      this.operator().catch(() => ({ name: '', inn: '', address: '' })),
    )
    return fillOperator(text, await operator)
  }

  /**
   * Drops the cached route map (the next request reloads it) and, through the listeners, the kept
   * pages the write changed (every page unless told). Call after every content write.
   */
  invalidate(changed: PagesChanged = 'every page', version?: number): void {
    this.routeMap.afterWrite(changed, version)
  }

  /** Runs after every invalidation, this process's own writes and other processes' alike. */
  onInvalidate(listener: (changed: PagesChanged) => void): void {
    this.routeMap.onInvalidate(listener)
  }

  /** Notices other processes' content writes (at most one version read a second). */
  sync(): Promise<void> {
    return this.routeMap.sync()
  }

  /** Whether the last content version check reached the database (at most a second old). */
  get databaseReachable(): boolean {
    return this.routeMap.databaseReachable
  }

  /** A query failed because the database is unavailable: the outage path starts now. */
  markUnreachable(): void {
    this.routeMap.markUnreachable()
  }

  /** The route map: brought up to date with every write noticed ('fresh'), or as it is ('latest'). */
  routes(freshness: Freshness = 'fresh'): Promise<RouteMap> {
    return freshness === 'fresh' ? this.routeMap.get() : this.routeMap.latest()
  }

  /**
   * The record with this id as the site shows it (a product is read by its row: the map holds the
   * tree), or undefined. 'latest' never waits for the map to be brought up to date.
   */
  async entryById(id: number, freshness: Freshness = 'fresh'): Promise<RouteEntry | undefined> {
    return (await entryById(this.db, await this.routes(freshness), id))?.entry
  }

  /** The record at a URL as the site shows it, or undefined (as entryById). */
  async entryAt(urlFull: string, freshness: Freshness = 'fresh'): Promise<RouteEntry | undefined> {
    return (await entryAt(this.db, await this.routes(freshness), urlFull))?.entry
  }

  async getSite(urlPathname: string, freshness: Freshness = 'fresh'): Promise<SiteInfo | null> {
    return this.siteOf(await this.routes(freshness), urlPathname)
  }

  private async siteOf(routes: RouteMap, urlPathname: string): Promise<SiteInfo | null> {
    const owner = routes.indexes.find((entry) => isPrefixOf(entry.urlFull, normalizePath(urlPathname)))
    if (!owner) return null
    const site = derivedFrom(routes, `site ${owner.id}`, () => buildSiteInfo(routes, owner))
    // The cookie notice's version, read once per route map (a content write makes a new one).
    const cookieVersion = derivedFrom(routes, `cookie version ${owner.id}`, () =>
      cookieNoticeVersion(this.db, site.cookiesUrl),
    )
    return { ...site, cookieVersion: await cookieVersion }
  }

  /** The cookie notice's version of every site: the only versions a cookie choice may name. */
  async cookieVersions(): Promise<string[]> {
    const routes = await this.routes()
    const sites = await Promise.all(routes.indexes.map((entry) => this.siteOf(routes, entry.urlFull)))
    return [...new Set(sites.flatMap((site) => (site?.cookieVersion ? [site.cookieVersion] : [])))]
  }

  /**
   * The page at a URL with the site of its header and footer, or what to answer instead: the one
   * call a rendering of the catch-all page makes (docs/decisions/045-one-call-and-light-cards.md).
   * `reads` collects what the answer depends on, for the page cache (src/site/page-tags.ts).
   */
  async pageOf(
    urlPathname: string,
    search: string | null = '',
    reads: PageReads = new PageReads(),
  ): Promise<PageResolution> {
    let routes = await this.routes()
    const path = normalizePath(urlPathname)
    let found = await entryAt(this.db, routes, path)
    if (found?.behind) {
      // Added since the map was loaded (by another process or straight into the database): a new
      // map; the kept pages that process's write changed go at the next version check.
      this.routeMap.reloadMap()
      routes = await this.routes()
      found = await entryAt(this.db, routes, path)
    }
    let entry = found?.entry
    if (!entry) {
      // That no record answers a URL changes with any record's place.
      reads.add(TREE_TAG)
      const toggled = toggleTrailingSlash(path)
      const other = toggled ? (await entryAt(this.db, routes, toggled))?.entry : undefined
      if (other) reads.record(other.id)
      if (other && isPublic(other)) return { kind: 'redirect', url: other.urlFull }
      if (!other) return this.resolveFormerUrl(routes, path, reads)
      entry = other
    }
    reads.record(entry.id)
    if (path !== urlPathname) return { kind: 'redirect', url: path }
    // A draft answers 404 as if it never existed, a withdrawn record 410 (content/visibility.ts).
    const state = entry.state
    if (state !== 'public') return { kind: state }
    if (!TYPE_IDS.includes(entry.typeId as TypeId)) return { kind: 'missing' }
    // One URL per page: a section's parameters in their canonical spelling, any other page without them.
    const params = new URLSearchParams(search ?? '')
    let query = entry.typeId === 'section' ? parseSectionQuery(params) : null
    // Filters by characteristic only of the characteristics the owner made filters of that kind.
    if (query && (query.values.length > 0 || query.ranges.length > 0))
      query = keepKnownFilters(query, await loadFilterCharacteristics(this.db))
    if (query && query.page > MAX_SECTION_PAGE) return { kind: 'missing' }
    // A product's variant (`?v=<id>`, decision 043); a value that is no id, or of no variant of it, 301s to the product.
    const v = entry.typeId === 'product' ? variantParam(params) : null
    const canonical = query ? sectionSearch(query) : typeof v === 'number' ? variantHref('', v) : ''
    const move = canonicalRedirect(search ?? '', canonical, PAGE_QUERY_NAMES)
    if (move !== null) return { kind: 'redirect', url: path, search: move }
    let page = await loadPage(this.db, routes, this.counts, entry, query, reads, typeof v === 'number' ? v : null)
    if (!page) return { kind: 'missing' }
    if (page.typeId === 'product' && typeof v === 'number' && page.variantId !== v)
      return { kind: 'redirect', url: path, search: canonicalRedirect(search ?? '', '', PAGE_QUERY_NAMES) ?? '' }
    if (page.typeId === 'page' && page.content?.includes('{{')) {
      const content = await this.fillDocument(page.content)
      const description = page.meta.description && (await this.fillDocument(page.meta.description))
      page = { ...page, content, meta: { ...page.meta, description } }
    }
    return { kind: 'page', page, status: entry.status ?? 200, site: await this.siteOf(routes, path) }
  }

  /**
   * A URL no record has: one a record had before it moved (with or without its trailing slash)
   * redirects (301) to where the record is now, if it is public (decision 028); one of a deleted
   * record answers 410; any other 404.
   */
  private async resolveFormerUrl(routes: RouteMap, path: string, reads: PageReads): Promise<PageResolution> {
    // A section's old URL asked without its trailing slash (or a page's with one) leads there too,
    // as the URL of a record that is still there does.
    const toggled = toggleTrailingSlash(path)
    const movedTo = (await movedTarget(this.db, path)) ?? (toggled ? await movedTarget(this.db, toggled) : null)
    const target = movedTo === null ? undefined : (await entryById(this.db, routes, movedTo))?.entry
    if (target) {
      reads.record(target.id)
      const state = target.state
      return state === 'public' ? { kind: 'redirect', url: target.urlFull } : { kind: state }
    }
    return (await isGoneUrl(this.db, path)) ? { kind: 'gone' } : { kind: 'missing' }
  }
}
