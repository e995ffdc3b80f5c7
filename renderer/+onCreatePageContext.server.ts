// https://vike.dev/onCreatePageContext
// Header and footer show the index record that owns the URL (the longest urlFull prefix).
import type { PageContextServer } from 'vike/types'

export async function onCreatePageContext(pageContext: PageContextServer) {
  const { content } = pageContext
  if (!content) return
  pageContext.publicSettings = content.publicSettings
  pageContext.site = await content.getSite(pageContext.urlPathname)
}
