// Global Vike settings: they apply to every page (https://vike.dev/config).
import vikeReact from 'vike-react/config'
import type { Config } from 'vike/types'

export default {
  extends: [vikeReact],
  lang: 'ru',
  title: 'Каталог',
  // Records own their exact urlFull, with or without a trailing slash; the page itself
  // redirects (301) the other variant, so Vike must not normalise first.
  disableUrlNormalization: true,
  // HTML-only pages (https://vike.dev/render-modes): no Vike client runtime and no hydration of the
  // whole page; +client.ts hydrates the few interactive parts as islands
  // (docs/decisions/021-islands.md). The back office opts back in.
  clientHooks: false,
  // https://vike.dev/meta — what the page cache (server/site/page-answer.ts) may do with a page's
  // answer is the page's own declaration, never a match on the URL it was asked by.
  meta: {
    // false: never kept (a page made for one visitor, the back office). Default true.
    pageCache: { env: { server: true } },
    // The query parameters the page reads: the only ones that key its cache entry (default none).
    pageQuery: { env: { server: true } },
    // Response headers the page's answers carry (the back office: X-Robots-Tag).
    pageHeaders: { env: { server: true } },
    // false: the page's HTML answers do not name the site's speculation rules in their
    // `Speculation-Rules` header (server/site/speculation-rules.ts). Default true.
    speculationRules: { env: { server: true } },
    // true: once Vike rendered one of the page's answers, the server renders the page's later 200s
    // itself, from the same components (server/site/direct-render.ts, docs/decisions/036-direct-render.md).
    directRender: { env: { server: true } },
    // The function that makes a page's HTML document (+document.ts): Vike carries it in
    // pageContext.config, so the server's direct path calls the one +onRenderHtml.ts calls.
    document: { env: { server: true } },
    // true: the page's screens read parts of its pageQuery, and its own +Head declares each screen's
    // part to the browser (renderer/navigation.ts) instead of renderer/+Head declaring all of it.
    screenQuery: { env: { server: true } },
    // true: the page's +data sets pageContext.site from the call that reads its page (pages/cms:
    // content.pageOf()), and +onCreatePageContext.server.ts does not read the site again.
    siteInData: { env: { server: true } },
  },
} satisfies Config
