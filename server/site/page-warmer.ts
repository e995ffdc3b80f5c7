// Warm after a large write (issue 34 item 3): when writes drop many kept pages (an import, a 1C
// exchange, a price change on a section), the most-visited of them are rendered again in the
// background once the writes have gone quiet, so the first visitor after an exchange finds them in
// the page cache. Bounded and at low priority: at most `pages` pages, one at a time, each only
// while no visitor's page is rendering, and a new drop stops the round (its pages would go again).
import { LRUCache } from 'lru-cache'

/** Paths whose visits are counted: the catalogue's pages, with room */
const COUNTED_PATHS = 20_000
/** Dropped pages that make a write large enough to warm after */
const LARGE_WRITE = 10
/** How long a visitor's rendering holds a warm rendering back before it looks again */
const YIELD_MS = 25

export interface WarmerOptions {
  /** The most-visited pages to render again after a large write; 0: never */
  readonly pages: number
  /** Quiet after the last drop before warming starts (an import drops pages step after step) */
  readonly quietMs: number
  /** Renders the page of a cache key into the cache (unless it is there already) */
  readonly render: (key: string) => Promise<void>
  /** Whether a visitor's page is rendering now */
  readonly busy: () => boolean
  /** A warm rendering failed: the warmer goes on with the next page */
  readonly onError: (error: unknown, key: string) => void
}

export class PageWarmer {
  /** Visits by cache key (pages without a query string), halved after each round so they age */
  private readonly visits = new LRUCache<string, number>({ max: COUNTED_PATHS })
  /** Kept pages dropped since the last round */
  private readonly dropped = new Set<string>()
  private timer: NodeJS.Timeout | null = null
  private round: Promise<void> | null = null
  /** Bumped by every drop: a round under way stops when it moves */
  private generation = 0

  constructor(private readonly options: WarmerOptions) {}

  /** A visitor asked for the page of `key`. */
  visited(key: string): void {
    if (this.options.pages === 0 || key.includes('?')) return
    this.visits.set(key, (this.visits.get(key) ?? 0) + 1)
  }

  /** A write dropped these kept pages: warm the most-visited once the writes go quiet. */
  droppedPages(keys: readonly string[]): void {
    if (this.options.pages === 0 || keys.length === 0) return
    this.generation++
    for (const key of keys) if (this.visits.has(key)) this.dropped.add(key)
    if (this.timer) clearTimeout(this.timer)
    this.timer = setTimeout(() => this.start(), this.options.quietMs)
    this.timer.unref()
  }

  /** Resolves when no round is waiting or under way (tests, and a graceful stop). */
  async settled(): Promise<void> {
    while (this.timer || this.round) {
      if (this.round) await this.round
      else await new Promise((resolve) => setTimeout(resolve, 10))
    }
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    this.generation++
  }

  private start(): void {
    this.timer = null
    if (this.dropped.size < LARGE_WRITE) {
      // A small write: its few pages are rendered by their next visitors.
      this.dropped.clear()
      return
    }
    const keys = [...this.dropped]
      .sort((a, b) => (this.visits.get(b) ?? 0) - (this.visits.get(a) ?? 0))
      .slice(0, this.options.pages)
    this.dropped.clear()
    this.round = this.warm(keys, this.generation).finally(() => {
      this.round = null
    })
  }

  private async warm(keys: readonly string[], generation: number): Promise<void> {
    for (const key of keys) {
      while (this.options.busy() && generation === this.generation) await sleep(YIELD_MS)
      if (generation !== this.generation) return
      try {
        await this.options.render(key)
      } catch (error) {
        this.options.onError(error, key)
      }
      // Between two renderings, whatever else waits (a visitor's request) goes first.
      await new Promise((resolve) => setImmediate(resolve))
    }
    for (const [key, count] of [...this.visits.entries()]) {
      if (count > 1) this.visits.set(key, count >> 1)
      else this.visits.delete(key)
    }
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
