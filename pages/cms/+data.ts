// https://vike.dev/data — server-only: find the structure record for the URL, and the site of its
// header and footer, via the content service in pageContext. Missing → 404, withdrawn → 410, the
// other slash variant → 301.
import { redirect, render } from 'vike/abort'
import type { PageContextServer } from 'vike/types'
import { useConfig } from 'vike-react/useConfig'
import type { PageData } from '../../src/site/types'
import { checkReads } from '../../src/site/page-tags'
import { pageSettings } from '../../src/site/head-tags'

export type Data = PageData

const ABORT_STATUSES = [401, 403, 404, 410, 429, 500, 503] as const

export async function data(pageContext: PageContextServer): Promise<Data> {
  // Vike's useConfig() is callable in data() before the first await (https://vike.dev/useConfig).
  // eslint-disable-next-line react-hooks/rules-of-hooks
  const config = useConfig()
  const { content } = pageContext
  if (!content) throw new Error('pageContext.content is missing: render pages through the Vitrina server')
  const search = pageContext.urlParsed.searchOriginal ?? ''
  // The page and the site of its header and footer in one call, the one the direct path makes
  // (server/site/direct-render.ts); +onCreatePageContext leaves the site to it (`siteInData`).
  const result = await content.pageOf(pageContext.urlPathname, search, pageContext.pageReads)
  switch (result.kind) {
    case 'redirect':
      throw redirect(result.url + (result.search ?? search), 301)
    case 'missing':
      throw render(404)
    case 'gone':
      throw render(410)
  }
  if (result.status !== 200 && (ABORT_STATUSES as readonly number[]).includes(result.status)) {
    throw render(result.status as (typeof ABORT_STATUSES)[number])
  }
  const { page, site } = result
  pageContext.site = site
  // A record the page shows but did not collect as read would stay stale in the page cache.
  if (import.meta.env.DEV && pageContext.pageReads) checkReads(page, pageContext.pageReads)
  // The server's direct path gives the document the same settings (renderer/document.ts).
  config(pageSettings(page))
  return page
}
