// https://vike.dev/config — the catalogue search (docs/decisions/030-search.md).
import type { Config } from 'vike/types'

export default {
  // The page reads these two; any other parameter makes no difference to it.
  pageQuery: ['q', 'page'],
  // Never kept: every distinct query would be an entry of its own, and a stranger can send
  // endless distinct queries that push the catalogue's pages out of the cache. A search is bounded
  // on its own (p99 ≤ 15 ms on SQLite at 10,000 products, `npm run bench`).
  pageCache: false,
  pageHeaders: { 'x-robots-tag': 'noindex' },
} satisfies Config
