// https://vike.dev/onCreatePageContext — runs after routing, before the page's own hooks.
import type { PageContextServer } from 'vike/types'
import { limitQuery } from './page-query'

export async function onCreatePageContext(pageContext: PageContextServer) {
  // The page sees only the query parameters it declares (pageQuery); reading another throws in
  // development and tests (renderer/page-query.ts, docs/decisions/012-page-cache.md).
  limitQuery(pageContext, import.meta.env.DEV)
  // Header and footer show the index record that owns the URL (the longest urlFull prefix).
  const { content } = pageContext
  if (!content) return
  pageContext.publicSettings = content.publicSettings
  // A page whose +data reads its site with its page, in its one content call, gets it there
  // (pages/cms: content.pageOf()); reading it here too would be a second call per rendering.
  if (pageContext.config.siteInData) return
  pageContext.site = await content.getSite(pageContext.urlPathname)
}
