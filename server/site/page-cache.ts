// The rendered-page cache (docs/decisions/012-page-cache.md): anonymous answers of pages and of
// their pageContext.json, kept in memory and bounded in bytes (LRU), with their brotli and gzip
// variants made once. Keyed by path and query without the tracking parameters robots.txt declares
// in Clean-param; emptied whenever the content changes (this process's writes at once, other
// processes' within the 1 s content version check). Concurrent misses of one key render once.
import { createHash } from 'node:crypto'
import { promisify } from 'node:util'
import zlib from 'node:zlib'
import { LRUCache } from 'lru-cache'
import { VISIT_TAG_KEYS } from '../../src/lead/lead-source'
import { COMPRESS_MIN_BYTES, isCompressible, pickEncoding, type Encoding } from '../http/compression'

const brotli = promisify(zlib.brotliCompress)
const gzip = promisify(zlib.gzip)

/** Answers worth keeping: a page, a redirect, a missing or withdrawn page. */
const CACHEABLE_STATUSES = new Set([200, 301, 404, 410])
const TRACKING = new Set<string>(VISIT_TAG_KEYS)

/** A rendered answer as the renderer hands it over. */
export interface RenderedPage {
  readonly status: number
  /** Header names in lower case */
  readonly headers: Readonly<Record<string, string>>
  readonly body: Buffer
}

export interface CachedPage extends RenderedPage {
  /** Strong validator: a hash of the body */
  readonly etag: string
  /** HTTP date, to the second, of the rendering */
  readonly lastModified: string
  readonly br: Buffer | null
  readonly gzip: Buffer | null
}

/**
 * The cache key: the path and the query with tracking parameters dropped and the rest sorted,
 * so `/?utm_source=ya` and `/` are one page. Null for a URL that cannot be parsed.
 */
export function pageCacheKey(url: string): string | null {
  let parsed: URL
  try {
    parsed = new URL(url, 'http://localhost')
  } catch {
    return null
  }
  const params = [...parsed.searchParams].filter(([name]) => !TRACKING.has(name)).sort(([a], [b]) => (a < b ? -1 : 1))
  const query = new URLSearchParams(params).toString()
  return query ? `${parsed.pathname}?${query}` : parsed.pathname
}

export class PageCache {
  private readonly entries: LRUCache<string, CachedPage>
  private readonly pending = new Map<string, Promise<CachedPage>>()
  private generation = 0

  constructor(maxBytes: number) {
    this.entries = new LRUCache<string, CachedPage>({
      maxSize: maxBytes,
      sizeCalculation: (entry) =>
        Math.max(1, entry.body.length + (entry.br?.length ?? 0) + (entry.gzip?.length ?? 0) + 512),
    })
  }

  /** The kept answer for `key`, if any, without rendering. */
  peek(key: string): CachedPage | undefined {
    return this.entries.get(key)
  }

  /** Drops everything: the content changed. A render under way is not stored either. */
  clear(): void {
    this.generation++
    this.entries.clear()
    this.pending.clear()
  }

  /**
   * The cached answer for `key`, or the one `render` makes now (shared with every concurrent
   * request for the same key). `hit` is false only for the request that rendered it. An answer
   * that must not be kept (a 5xx, a Set-Cookie) is still shared with the requests that waited.
   */
  async get(key: string, render: () => Promise<RenderedPage>): Promise<{ page: CachedPage; hit: boolean }> {
    const cached = this.entries.get(key)
    if (cached) return { page: cached, hit: true }
    const waiting = this.pending.get(key)
    if (waiting) return { page: await waiting, hit: true }
    const generation = this.generation
    const rendering = render().then(prepare)
    this.pending.set(key, rendering)
    try {
      const page = await rendering
      if (generation === this.generation && isCacheable(page)) this.entries.set(key, page)
      return { page, hit: false }
    } finally {
      if (this.pending.get(key) === rendering) this.pending.delete(key)
    }
  }

  get size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.entries.calculatedSize }
  }
}

function isCacheable(page: RenderedPage): boolean {
  return CACHEABLE_STATUSES.has(page.status) && page.headers['set-cookie'] === undefined
}

async function prepare(page: RenderedPage): Promise<CachedPage> {
  const compressible =
    isCacheable(page) && page.body.length >= COMPRESS_MIN_BYTES && isCompressible(page.headers['content-type'])
  const [br, gz] = compressible
    ? await Promise.all([
        brotli(page.body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 9 } }),
        gzip(page.body, { level: 9 }),
      ])
    : [null, null]
  return {
    ...page,
    etag: `"${createHash('sha256').update(page.body).digest('base64url').slice(0, 32)}"`,
    lastModified: new Date(Math.floor(Date.now() / 1000) * 1000).toUTCString(),
    br,
    gzip: gz,
  }
}

/** The variant for this Accept-Encoding: brotli, then gzip, else the plain body. */
export function pickVariant(page: CachedPage, acceptEncoding: string | undefined): Encoding | null {
  return page.br && page.gzip ? pickEncoding(acceptEncoding, ['br', 'gzip']) : null
}

/** A conditional request the cached answer satisfies: If-None-Match first, else If-Modified-Since. */
export function isNotModified(
  page: CachedPage,
  headers: { 'if-none-match'?: string; 'if-modified-since'?: string },
): boolean {
  const match = headers['if-none-match']
  if (match !== undefined) {
    return match.trim() === '*' || match.split(',').some((tag) => tag.trim().replace(/^W\//, '') === page.etag)
  }
  const since = headers['if-modified-since']
  if (since === undefined) return false
  const at = Date.parse(since)
  return Number.isFinite(at) && at >= Date.parse(page.lastModified)
}
