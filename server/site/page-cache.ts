// The rendered-page cache (docs/decisions/012-page-cache.md): anonymous page answers kept in memory,
// bounded in bytes (LRU), with their brotli and gzip variants made once. What may be kept is the
// page's own declaration (its Vike config: `pageCache`, `pageQuery`), never a match on the URL: an
// entry is keyed by the path and only the query parameters the page declares it reads, so tracking
// tags and junk parameters make no new entries, and a 404 (an unknown path) is never kept. Each
// entry keeps the tags of what its rendering read (src/site/page-tags.ts); a content write drops
// the entries whose tags meet what it changed, or all of them when it changed what every page shows
// (this process's writes at once, other processes' within the 1 s content version check;
// docs/decisions/033-selective-invalidation.md). Concurrent misses of one key render once. Answers to a URL with a query
// string (filters, sorting, pages of a listing: a visitor can vary a price range freely) live in a
// segment of their own, a quarter of the bytes: however many of them are asked for, they push out
// only each other, never a page asked for without parameters (issue #36).
import { createHash } from 'node:crypto'
import { promisify } from 'node:util'
import zlib from 'node:zlib'
import { LRUCache } from 'lru-cache'
import { VISIT_TAG_KEYS } from '../../src/lead/lead-source'
import { brotliParams, COMPRESS_MIN_BYTES, isCompressible, pickEncoding, type Encoding } from '../http/compression'
import { isChangedFor, type PagesChanged } from '../../src/site/page-tags'
import { compareNames, isDeclaredName } from '../../src/site/query-names'

const brotli = promisify(zlib.brotliCompress)
const gzip = promisify(zlib.gzip)

/** Answers worth keeping: a page, a redirect, a withdrawn page. A 404 is not: any path makes one. */
const CACHEABLE_STATUSES = new Set([200, 301, 410])
const TRACKING = new Set<string>(VISIT_TAG_KEYS)
/** Paths whose declared query parameters are remembered: the pages of the catalogue, with room. */
const MAX_KNOWN_PATHS = 200_000
/** The share of the cache's bytes that answers to URLs with a query string may take */
const QUERY_SHARE = 0.25
/** Drops remembered for the renderings under way: one that began before older drops is not kept */
const KEPT_DROPS = 64

/** A rendered answer as the renderer hands it over. */
export interface RenderedPage {
  readonly status: number
  /** Header names in lower case */
  readonly headers: Readonly<Record<string, string>>
  readonly body: Buffer
  /**
   * Where the cache may keep this answer (the path and the parameters the page reads), or null:
   * the page said it must not be kept, or it was rendered from parameters the page does not read.
   */
  readonly keepAs: string | null
  /** The query parameters the page reads (its `pageQuery`); null when the page may not be kept */
  readonly query: readonly string[] | null
  /** The tags of what the rendering read: a write that changes any of them drops the answer */
  readonly tags: ReadonlySet<string>
}

export interface CachedPage extends RenderedPage {
  /** The cache keeps this answer (its page allows it, and it is worth keeping) */
  readonly kept: boolean
  /** Strong validators, one per representation: identity, brotli and gzip bodies differ (RFC 9110 §8.8.3) */
  readonly etags: Readonly<Record<Encoding | 'identity', string>>
  /** HTTP date, to the second, of the rendering */
  readonly lastModified: string
  readonly br: Buffer | null
  readonly gzip: Buffer | null
}

/** The path and the given query parameters of a URL, sorted: one page, however it was asked for. */
export function keyWith(url: URL, parameters: readonly string[]): string {
  const params = [...url.searchParams]
    .filter(([name]) => isDeclaredName(parameters, name))
    .sort(([a], [b]) => compareNames(a, b))
  const query = new URLSearchParams(params).toString()
  return query ? `${url.pathname}?${query}` : url.pathname
}

/** What an entry costs the cache: its bodies and a little for its headers. */
function entrySize(entry: CachedPage): number {
  return Math.max(1, entry.body.length + (entry.br?.length ?? 0) + (entry.gzip?.length ?? 0) + 512)
}

export class PageCache {
  /** Answers to a path without a query string: pages as linked from the menu, the sitemap, the feed */
  private readonly entries: LRUCache<string, CachedPage>
  /** Answers to a path with parameters its page reads: bounded apart, so they never evict the others */
  private readonly queryEntries: LRUCache<string, CachedPage>
  /** The parameters each path's page reads, learned from its answers: a request is keyed by them */
  private readonly queryByPath = new LRUCache<string, readonly string[]>({ max: MAX_KNOWN_PATHS })
  private readonly pending = new Map<string, Promise<CachedPage>>()
  /** The kept keys by tag: a write's tags find the entries it changed */
  private readonly byTag = new Map<string, Set<string>>()
  /** The last drops, by generation: a rendering under way during one that concerns it is not kept */
  private drops: { generation: number; changed: PagesChanged }[] = []
  private generation = 0

  constructor(maxBytes: number) {
    const queryBytes = Math.max(1, Math.floor(maxBytes * QUERY_SHARE))
    const dispose = (page: CachedPage, key: string) => this.unindex(key, page.tags)
    this.entries = new LRUCache<string, CachedPage>({
      maxSize: Math.max(1, maxBytes - queryBytes),
      sizeCalculation: entrySize,
      dispose,
    })
    this.queryEntries = new LRUCache<string, CachedPage>({ maxSize: queryBytes, sizeCalculation: entrySize, dispose })
  }

  private unindex(key: string, tags: ReadonlySet<string>): void {
    for (const tag of tags) {
      const keys = this.byTag.get(tag)
      keys?.delete(key)
      if (keys?.size === 0) this.byTag.delete(tag)
    }
  }

  /** The segment an entry of this key lives in. */
  private segment(key: string): LRUCache<string, CachedPage> {
    return key.includes('?') ? this.queryEntries : this.entries
  }

  /**
   * The key a request looks its page up by, and the URL it is rendered from: its path and the
   * parameters that path's page reads, or, for a path not rendered yet, every parameter but the
   * tracking ones. Null for a URL that cannot be parsed.
   */
  keyOf(url: string): string | null {
    let parsed: URL
    try {
      parsed = new URL(url, 'http://localhost')
    } catch {
      return null
    }
    const known = this.queryByPath.get(parsed.pathname)
    return keyWith(parsed, known ?? [...parsed.searchParams.keys()].filter((name) => !TRACKING.has(name)))
  }

  /** The kept answer for `key`, if any, without rendering. */
  peek(key: string): CachedPage | undefined {
    return this.segment(key).get(key)
  }

  /** Drops everything: the content changed. A render under way is not stored either. */
  clear(): void {
    this.drop('every page')
  }

  /**
   * Drops the entries a write changed (every one for 'every page'). A rendering under way is kept
   * only if the drop does not concern what it read, and a request from now on renders anew.
   * Returns the keys of the pages without a query string it dropped.
   */
  drop(changed: PagesChanged): string[] {
    this.generation++
    this.drops.push({ generation: this.generation, changed })
    if (this.drops.length > KEPT_DROPS) this.drops = this.drops.slice(-KEPT_DROPS)
    this.pending.clear()
    if (changed === 'every page') {
      const keys = [...this.entries.keys()]
      this.entries.clear()
      this.queryEntries.clear()
      this.byTag.clear()
      return keys
    }
    const keys = new Set<string>()
    for (const tag of changed) {
      for (const key of [...(this.byTag.get(tag) ?? [])]) {
        this.segment(key).delete(key)
        if (!key.includes('?')) keys.add(key)
      }
    }
    return [...keys]
  }

  /** Whether a drop since `generation` concerns a page that read `tags`. */
  private droppedSince(generation: number, tags: ReadonlySet<string>): boolean {
    if (generation === this.generation) return false
    if (this.drops.length === 0 || this.drops[0].generation > generation + 1) return true
    return this.drops.some((drop) => drop.generation > generation && isChangedFor(drop.changed, tags))
  }

  /**
   * The cached answer for `key`, or the one `render` makes now (shared with every concurrent
   * request for the same key). `hit` is false only for the request that rendered it. The answer is
   * kept under its own `keepAs` key when it says where.
   */
  async get(key: string, render: () => Promise<RenderedPage>): Promise<{ page: CachedPage; hit: boolean }> {
    const cached = this.segment(key).get(key)
    if (cached) return { page: cached, hit: true }
    const waiting = this.pending.get(key)
    if (waiting) return { page: await waiting, hit: true }
    const generation = this.generation
    const rendering = render().then(prepare)
    this.pending.set(key, rendering)
    try {
      const page = await rendering
      if (!this.droppedSince(generation, page.tags) && page.query !== null && isCacheable(page)) {
        this.queryByPath.set(key.split('?', 1)[0], page.query)
        if (page.kept) this.keep(page.keepAs!, page)
      }
      return { page, hit: false }
    } finally {
      if (this.pending.get(key) === rendering) this.pending.delete(key)
    }
  }

  private keep(key: string, page: CachedPage): void {
    const segment = this.segment(key)
    segment.set(key, page)
    // Indexed once kept: an entry too large for its segment is not, and the old one's tags went.
    if (segment.peek(key) !== page) return
    for (const tag of page.tags) {
      let keys = this.byTag.get(tag)
      if (!keys) this.byTag.set(tag, (keys = new Set()))
      keys.add(key)
    }
  }

  get size(): { entries: number; bytes: number } {
    return {
      entries: this.entries.size + this.queryEntries.size,
      bytes: this.entries.calculatedSize + this.queryEntries.calculatedSize,
    }
  }
}

function isCacheable(page: RenderedPage): boolean {
  return CACHEABLE_STATUSES.has(page.status) && page.headers['set-cookie'] === undefined
}

async function prepare(page: RenderedPage): Promise<CachedPage> {
  const kept = page.keepAs !== null && page.query !== null && isCacheable(page)
  const compressible = kept && page.body.length >= COMPRESS_MIN_BYTES && isCompressible(page.headers['content-type'])
  const [br, gz] = compressible
    ? await Promise.all([
        brotli(page.body, { params: brotliParams(9, page.body.length) }),
        gzip(page.body, { level: 9 }),
      ])
    : [null, null]
  const hash = createHash('sha256').update(page.body).digest('base64url').slice(0, 32)
  return {
    ...page,
    kept,
    etags: { identity: `"${hash}"`, br: `"${hash}-br"`, gzip: `"${hash}-gz"` },
    lastModified: new Date(Math.floor(Date.now() / 1000) * 1000).toUTCString(),
    br,
    gzip: gz,
  }
}

/** The variant for this Accept-Encoding: brotli, then gzip, else the plain body. */
export function pickVariant(page: CachedPage, acceptEncoding: string | undefined): Encoding | null {
  return page.br && page.gzip ? pickEncoding(acceptEncoding, ['br', 'gzip']) : null
}

/**
 * A conditional request the cached answer satisfies: If-None-Match first (any of the page's
 * representations: a client revalidates with whichever one it got), else If-Modified-Since.
 */
export function isNotModified(
  page: CachedPage,
  headers: { 'if-none-match'?: string; 'if-modified-since'?: string },
): boolean {
  const match = headers['if-none-match']
  if (match !== undefined) {
    const tags = Object.values(page.etags)
    return match.trim() === '*' || match.split(',').some((tag) => tags.includes(tag.trim().replace(/^W\//, '')))
  }
  const since = headers['if-modified-since']
  if (since === undefined) return false
  const at = Date.parse(since)
  return Number.isFinite(at) && at >= Date.parse(page.lastModified)
}
