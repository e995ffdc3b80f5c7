// https://vike.dev/config — the catch-all page's own settings.
import type { Config } from 'vike/types'
import { PAGE_QUERY_NAMES } from '../../src/site/variant-query'

export default {
  // A section page reads its page, order and filters from these, a product page its variant (`v`);
  // the page cache keys by them and nothing else, and every other screen redirects them away
  // (docs/decisions/031-sections-and-scale.md, 043-variants.md).
  pageQuery: PAGE_QUERY_NAMES,
  // Its answers are rendered by the server without Vike's renderPage() once Vike rendered one; the
  // page's +data, +Page, +Head and the renderer's +Layout must read nothing else than they do now
  // (docs/decisions/036-direct-render.md; test/server/direct-render.test.ts compares both).
  directRender: true,
  // Its +data reads the site of the header and footer with the page, in one content call.
  siteInData: true,
  // Its +Head tells the browser what each screen reads: nothing on the home page or a text page,
  // which need not carry the section's names (decision 045).
  screenQuery: true,
} satisfies Config
