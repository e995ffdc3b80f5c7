// https://vike.dev/data — server-only: the search runs on the server (pageContext.catalogueSearch),
// so the page works without JavaScript and the stemmer never reaches the browser.
import type { PageContextServer } from 'vike/types'
import { useConfig } from 'vike-react/useConfig'
import type { SearchAnswer } from '../../src/site/search-types'

export type Data = SearchAnswer

/** Pages past this one answer the last; the search itself stops there (server/catalogue) */
const MAX_PAGE = 100

function pageNumber(raw: string | undefined): number {
  if (raw === undefined || !/^\d{1,6}$/.test(raw)) return 1
  return Math.min(Math.max(Number(raw), 1), MAX_PAGE)
}

export async function data(pageContext: PageContextServer): Promise<Data> {
  // eslint-disable-next-line react-hooks/rules-of-hooks
  const config = useConfig()
  const search = pageContext.catalogueSearch
  if (!search) throw new Error('pageContext.catalogueSearch is missing: render pages through the Vitrina server')
  const { q, page } = pageContext.urlParsed.search
  const answer = await search.find(q ?? '', pageNumber(page))
  config({ title: answer.query ? `Поиск: ${answer.query.slice(0, 60)}` : 'Поиск по каталогу' })
  return answer
}
