// Page data for the SSR pages: the route map (urlFull → record) and one loader per screen.
// The route map is the spec's structure load plus every published record's URL; it is kept
// for structureTtl seconds, served stale while it reloads, and dropped at once on writes.
import { readContentVersion, type Db } from '../data/db'
import type {
  ContentSource,
  HomePage,
  NavLink,
  PageData,
  PageMeta,
  PageResolution,
  ProductCard,
  ProductPage,
  PublicSettings,
  SectionCard,
  SectionPage,
  SiteInfo,
  TextPage,
  TypeId,
} from '../../src/site/types'
import { isPrefixOf, normalizePath, toggleTrailingSlash } from '../../src/site/url'

const TYPE_IDS: readonly TypeId[] = ['index', 'section', 'product', 'page']
const HOME_PRODUCTS_PER_SECTION = 8
const VERSION_CHECK_MS = 1000

export interface RouteEntry {
  id: number
  parentId: number | null
  typeId: string
  title: string
  urlFull: string
  sort: number
  published: boolean
  status: number | null
}

export interface IndexEntry {
  id: number
  parentId: number | null
  typeId: string
  urlFull: string
  index: {
    logo: string | null
    tel: string | null
    telText: string | null
    description: string | null
    copyright: string | null
  }
}

export interface RouteMap {
  readonly byUrl: ReadonlyMap<string, RouteEntry>
  readonly byId: ReadonlyMap<number, RouteEntry>
  readonly children: ReadonlyMap<number | null, RouteEntry[]>
  /** Index records, longest urlFull first, for owner lookup */
  readonly indexes: readonly IndexEntry[]
  readonly loadedAt: number
}

export interface ContentServiceOptions {
  ttlSeconds: number
  publicSettings: PublicSettings
}

export class ContentService implements ContentSource {
  private current: RouteMap | null = null
  private loading: Promise<RouteMap> | null = null
  private generation = 0
  private version: number | null = null
  private versionCheckedAt = 0
  private readonly listeners: (() => void)[] = []
  readonly publicSettings: PublicSettings

  constructor(
    private readonly db: Db,
    private readonly options: ContentServiceOptions,
  ) {
    this.publicSettings = Object.freeze({ ...options.publicSettings })
  }

  /** Drops the cached route map; the next request reloads it. Call after every content write. */
  invalidate(): void {
    this.generation++
    this.current = null
    for (const listener of this.listeners) listener()
  }

  /** Runs after every invalidation, this process's own writes and other processes' alike. */
  onInvalidate(listener: () => void): void {
    this.listeners.push(listener)
  }

  /**
   * Notices content writes made by other processes (PM2 workers, tools): at most once a second
   * it reads the content version that every write bumps, and invalidates when it moved.
   */
  async sync(): Promise<void> {
    const now = Date.now()
    if (now - this.versionCheckedAt < VERSION_CHECK_MS) return
    this.versionCheckedAt = now
    const version = await readContentVersion(this.db)
    if (this.version !== null && version !== this.version) this.invalidate()
    this.version = version
  }

  async routes(): Promise<RouteMap> {
    await this.sync()
    const map = this.current
    const fresh = map && Date.now() - map.loadedAt < this.options.ttlSeconds * 1000
    if (map && fresh) return map
    const reload = this.loading ?? this.reload()
    // Stale-while-revalidate: an expired map keeps serving while the new one loads.
    return map ?? reload
  }

  private reload(): Promise<RouteMap> {
    const generation = this.generation
    this.loading = loadRouteMap(this.db)
      .then((map) => {
        if (generation === this.generation) this.current = map
        return map
      })
      .finally(() => {
        this.loading = null
      })
    return this.loading
  }

  async getSite(urlPathname: string): Promise<SiteInfo | null> {
    const routes = await this.routes()
    const owner = routes.indexes.find((entry) => isPrefixOf(entry.urlFull, normalizePath(urlPathname)))
    if (!owner) return null
    return buildSiteInfo(routes, owner)
  }

  /**
   * @param options.slashExact false for pageContext.json requests: Vike maps both `/a` and `/a/`
   *   to `/a/index.pageContext.json` and hands us `/a`, so the slash variant is not redirected.
   */
  async resolvePage(urlPathname: string, options: { slashExact?: boolean } = {}): Promise<PageResolution> {
    let routes = await this.routes()
    const path = normalizePath(urlPathname)
    let entry = routes.byUrl.get(path)
    if (!entry && (await this.existsInDatabase(path))) {
      // Added since the map was loaded (by another process or straight into the database).
      this.invalidate()
      routes = await this.routes()
      entry = routes.byUrl.get(path)
    }
    if (!entry) {
      const toggled = toggleTrailingSlash(path)
      const other = toggled ? routes.byUrl.get(toggled) : undefined
      if (other?.published && options.slashExact !== false) return { kind: 'redirect', url: other.urlFull }
      if (other) {
        entry = other
      } else {
        const gone = await this.db
          .selectFrom('goneUrl')
          .select('urlFull')
          .where('urlFull', '=', path)
          .executeTakeFirst()
        return gone ? { kind: 'gone' } : { kind: 'missing' }
      }
    }
    if (path !== urlPathname) return { kind: 'redirect', url: path }
    if (!entry.published || !TYPE_IDS.includes(entry.typeId as TypeId)) return { kind: 'missing' }
    if (entry.status === 410) return { kind: 'gone' }
    if (entry.status === 404) return { kind: 'missing' }
    const page = await this.loadPage(routes, entry)
    if (!page) return { kind: 'missing' }
    return { kind: 'page', page, status: entry.status ?? 200 }
  }

  private async existsInDatabase(urlFull: string): Promise<boolean> {
    const row = await this.db.selectFrom('structure').select('id').where('urlFull', '=', urlFull).executeTakeFirst()
    return row !== undefined
  }

  private async loadPage(routes: RouteMap, entry: RouteEntry): Promise<PageData | null> {
    const record = await this.db
      .selectFrom('structure')
      .select([
        'id',
        'title',
        'urlFull',
        'content',
        'metaTitle',
        'metaDescription',
        'metaImage',
        'metaRobots',
        'metaJsonLd',
      ])
      .where('id', '=', entry.id)
      .executeTakeFirst()
    if (!record) return null
    const base = {
      id: record.id,
      title: record.title,
      url: record.urlFull,
      breadcrumbs: breadcrumbs(routes, entry),
    }
    const meta = (fallback: { description?: string | null; image?: string | null }): PageMeta => ({
      title: record.metaTitle || record.title,
      description: record.metaDescription || excerpt(fallback.description ?? record.content),
      image: record.metaImage || fallback.image || null,
      robots: record.metaRobots,
      canonicalPath: record.urlFull,
      jsonLd: parseJsonLd(record.metaJsonLd),
    })
    switch (entry.typeId as TypeId) {
      case 'index': {
        const home = await this.loadHome(routes, entry)
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
        const children = routes.children.get(entry.id) ?? []
        const sections = await this.sectionCards(
          routes,
          children.filter((c) => c.published && c.typeId === 'section'),
        )
        const products = await this.productCards(children.filter((c) => c.published && c.typeId === 'product'))
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
        const product = await this.db
          .selectFrom('product')
          .select(['image', 'article', 'price', 'description'])
          .where('structureId', '=', entry.id)
          .executeTakeFirst()
        return {
          ...base,
          typeId: 'product',
          image: product?.image ?? null,
          article: product?.article ?? null,
          price: product?.price ?? null,
          description: product?.description ?? null,
          meta: meta({ description: product?.description, image: product?.image }),
        } satisfies ProductPage
      }
      case 'page':
        return { ...base, typeId: 'page', content: record.content, meta: meta({}) } satisfies TextPage
    }
  }

  /** The catalogue tree for the home page: sections holding products, in tree order. */
  private async loadHome(routes: RouteMap, entry: RouteEntry) {
    const [slides, advantages] = await Promise.all([
      this.db
        .selectFrom('sliderItem')
        .select(['id', 'image', 'title'])
        .where('structureId', '=', entry.id)
        .orderBy('sort')
        .orderBy('id')
        .execute(),
      this.db
        .selectFrom('advantage')
        .select(['id', 'image', 'title', 'description'])
        .where('structureId', '=', entry.id)
        .orderBy('sort')
        .orderBy('id')
        .execute(),
    ])
    const sectionEntries = descendants(routes, entry.id, (e) => e.typeId === 'section').filter((s) =>
      (routes.children.get(s.id) ?? []).some((c) => c.published && c.typeId === 'product'),
    )
    const cards = await this.sectionCards(routes, sectionEntries)
    const sections = await Promise.all(
      cards.map(async (card) => ({
        ...card,
        products: await this.productCards(
          (routes.children.get(card.id) ?? [])
            .filter((c) => c.published && c.typeId === 'product')
            .slice(0, HOME_PRODUCTS_PER_SECTION),
        ),
      })),
    )
    return { slides, advantages, sections }
  }

  private async productCards(entries: RouteEntry[]): Promise<ProductCard[]> {
    if (entries.length === 0) return []
    const parts = await this.db
      .selectFrom('product')
      .select(['structureId', 'image', 'article', 'price'])
      .where(
        'structureId',
        'in',
        entries.map((e) => e.id),
      )
      .execute()
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
      }
    })
  }

  private async sectionCards(routes: RouteMap, entries: RouteEntry[]): Promise<SectionCard[]> {
    if (entries.length === 0) return []
    const images = await this.db
      .selectFrom('structure')
      .select(['id', 'metaImage'])
      .where(
        'id',
        'in',
        entries.map((e) => e.id),
      )
      .execute()
    const imageById = new Map(images.map((r) => [r.id, r.metaImage]))
    return entries.map((e) => ({
      id: e.id,
      title: e.title,
      url: e.urlFull,
      image: imageById.get(e.id) ?? null,
      productCount: (routes.children.get(e.id) ?? []).filter((c) => c.published && c.typeId === 'product').length,
    }))
  }
}

/** The spec's structure load plus the URL of every record, in two queries. */
export async function loadRouteMap(db: Db): Promise<RouteMap> {
  const [rows, indexRows] = await Promise.all([
    db
      .selectFrom('structure')
      .select(['id', 'parentId', 'typeId', 'title', 'urlFull', 'sort', 'published', 'status'])
      .orderBy('sort')
      .orderBy('id')
      .execute(),
    // select id, parentId, typeId, urlFull, index {logo, tel, telText, description, copyright}
    // where typeId in [index] orderBy typeId asc (the route map load, docs/contract.md §3)
    db
      .selectFrom('structure')
      .leftJoin('siteIndex', 'siteIndex.structureId', 'structure.id')
      .select([
        'structure.id',
        'structure.parentId',
        'structure.typeId',
        'structure.urlFull',
        'structure.published',
        'siteIndex.logo',
        'siteIndex.tel',
        'siteIndex.telText',
        'siteIndex.description',
        'siteIndex.copyright',
      ])
      .where('structure.typeId', 'in', ['index'])
      .orderBy('structure.typeId', 'asc')
      .execute(),
  ])
  const entries: RouteEntry[] = rows.map((r) => ({ ...r, published: Boolean(r.published) }))
  const children = new Map<number | null, RouteEntry[]>()
  for (const e of entries) {
    const list = children.get(e.parentId) ?? []
    list.push(e)
    children.set(e.parentId, list)
  }
  const indexes: IndexEntry[] = indexRows
    .filter((r) => r.published)
    .map((r) => ({
      id: r.id,
      parentId: r.parentId,
      typeId: r.typeId,
      urlFull: r.urlFull,
      index: { logo: r.logo, tel: r.tel, telText: r.telText, description: r.description, copyright: r.copyright },
    }))
    .sort((a, b) => b.urlFull.length - a.urlFull.length)
  return {
    byUrl: new Map(entries.map((e) => [e.urlFull, e])),
    byId: new Map(entries.map((e) => [e.id, e])),
    children,
    indexes,
    loadedAt: Date.now(),
  }
}

function buildSiteInfo(routes: RouteMap, owner: IndexEntry): SiteInfo {
  const entry = routes.byId.get(owner.id)
  const menu: NavLink[] = descendants(routes, owner.id, (e) => e.typeId === 'section', 2).map((e) => ({
    title: e.title,
    url: e.urlFull,
  }))
  const pages = (routes.children.get(owner.id) ?? []).filter((e) => e.published && e.typeId === 'page')
  const bySlug = (slug: string) => pages.find((p) => p.urlFull.replace(/\/$/, '').endsWith(`/${slug}`))?.urlFull ?? null
  return {
    id: owner.id,
    url: owner.urlFull,
    title: entry?.title ?? '',
    ...owner.index,
    menu,
    footerLinks: pages.map((p) => ({ title: p.title, url: p.urlFull })),
    consentUrl: bySlug('soglasie'),
    policyUrl: bySlug('politika'),
  }
}

/** Published descendants in tree order (depth first, by sort), optionally limited in depth. */
function descendants(routes: RouteMap, rootId: number, accept: (e: RouteEntry) => boolean, maxDepth = 8): RouteEntry[] {
  const out: RouteEntry[] = []
  const walk = (id: number, depth: number) => {
    if (depth > maxDepth) return
    for (const child of routes.children.get(id) ?? []) {
      // A nested index record is another landing with its own tree.
      if (!child.published || child.typeId === 'index') continue
      if (accept(child)) out.push(child)
      walk(child.id, depth + 1)
    }
  }
  walk(rootId, 1)
  return out
}

function breadcrumbs(routes: RouteMap, entry: RouteEntry): NavLink[] {
  const chain: NavLink[] = []
  let cursor: RouteEntry | undefined = entry
  const seen = new Set<number>()
  while (cursor && !seen.has(cursor.id)) {
    seen.add(cursor.id)
    chain.unshift({ title: cursor.typeId === 'index' ? 'Главная' : cursor.title, url: cursor.urlFull })
    cursor = cursor.parentId === null ? undefined : routes.byId.get(cursor.parentId)
  }
  return chain
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
