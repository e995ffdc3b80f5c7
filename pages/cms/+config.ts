// https://vike.dev/config — the catch-all page's own settings.
import type { Config } from 'vike/types'
import { SECTION_QUERY_NAMES } from '../../src/site/section-query'

export default {
  // A section page reads its page, order and filters from these; the page cache keys by them and
  // nothing else, and every other screen redirects them away (docs/decisions/031-sections-and-scale.md).
  pageQuery: SECTION_QUERY_NAMES,
} satisfies Config
