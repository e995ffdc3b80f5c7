// The server-side cache of `ttl` reads: bounded in entries and bytes, each answer kept for its
// ttl (capped) and served stale for as long again while one refresh runs. A content write
// clears it at once; a refresh that started before the write does not put its old answer back.
import { LRUCache } from 'lru-cache'

export const READ_CACHE_LIMITS = Object.freeze({
  maxEntries: 500,
  maxBytes: 32 * 1024 * 1024,
  maxTtlSeconds: 3600,
  maxStaleSeconds: 600,
})

interface Entry {
  readonly body: string
  readonly freshUntil: number
  readonly staleUntil: number
}

export function staleSeconds(ttl: number): number {
  return Math.min(ttl, READ_CACHE_LIMITS.maxStaleSeconds)
}

export class ReadCache {
  private readonly cache = new LRUCache<string, Entry>({
    max: READ_CACHE_LIMITS.maxEntries,
    maxSize: READ_CACHE_LIMITS.maxBytes,
    sizeCalculation: (entry, key) => entry.body.length + key.length + 64,
  })
  private readonly refreshing = new Map<string, Promise<unknown>>()
  private generation = 0

  clear(): void {
    this.generation++
    this.cache.clear()
    this.refreshing.clear()
  }

  /**
   * The cached JSON for key, or the result of load (cached for ttl seconds). Errors are not cached.
   * `hit` tells whether the answer came from the cache.
   */
  async get(key: string, ttl: number, load: () => Promise<string>): Promise<{ body: string; hit: boolean }> {
    const entry = this.cache.get(key)
    const nowMs = Date.now()
    if (entry && nowMs < entry.freshUntil) return { body: entry.body, hit: true }
    if (entry && nowMs < entry.staleUntil) {
      if (!this.refreshing.has(key)) {
        const refresh = this.fill(key, ttl, load)
          .catch(() => {})
          .finally(() => this.refreshing.delete(key))
        this.refreshing.set(key, refresh)
      }
      return { body: entry.body, hit: true }
    }
    return { body: await this.fill(key, ttl, load), hit: false }
  }

  private async fill(key: string, ttl: number, load: () => Promise<string>): Promise<string> {
    const generation = this.generation
    const body = await load()
    if (generation === this.generation) {
      const nowMs = Date.now()
      const stale = staleSeconds(ttl)
      this.cache.set(
        key,
        { body, freshUntil: nowMs + ttl * 1000, staleUntil: nowMs + (ttl + stale) * 1000 },
        { ttl: (ttl + stale) * 1000 },
      )
    }
    return body
  }

  get size(): number {
    return this.cache.size
  }
}
