// Pages declare the query parameters they read (`pageQuery`), and see no other: the page cache keys
// a page by those parameters and renders it from that key, so a page reading an undeclared one would
// be rendered without it in production, silently. In development and tests the read itself fails
// (renderer/page-query.ts, docs/decisions/012-page-cache.md).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getPageContext } from 'vike/getPageContext'
import type { PageContextServer } from 'vike/types'
import { LEAD_FAILURE_TEXT } from '../../src/lead/lead-form-state'
import { PATHS } from '../../src/site/paths'
import type { SearchSource } from '../../src/site/search-types'
import { buildTestApp, type TestApp } from '../helpers/build-test-app'

const SECTION = '/structure/power-tools/'

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp()
})
afterAll(async () => {
  await t?.close()
})

/** Renders `url` as the page answerer does, with `search` standing in for the catalogue search. */
async function render(url: string, search: SearchSource = t.app.catalogueSearch) {
  const { renderPage } = await import('vike/server')
  return renderPage({
    urlOriginal: url,
    headersOriginal: {},
    content: t.app.content,
    catalogueSearch: search,
    cspNonce: 'test-nonce',
  })
}

/** The catalogue search, run from a page's +data that also reads `read` of the query for itself. */
function searchReading(read: (query: PageContextServer['urlParsed']['search']) => unknown): SearchSource {
  return {
    find(query, page) {
      const pageContext = getPageContext({ asyncHook: true }) as PageContextServer
      read(pageContext.urlParsed.search)
      return t.app.catalogueSearch.find(query, page)
    },
  }
}

describe('a page and the query', () => {
  it('hands a page only the parameters its pageQuery declares, whatever the URL carries', async () => {
    const pageContext = await render(`${PATHS.search}?utm_source=ya&q=drel&ref=mail&page=2`)
    expect(pageContext.httpResponse.statusCode).toBe(200)
    const { search, searchAll, searchOriginal, href } = pageContext.urlParsed!
    expect(Object.keys(search)).toEqual(['q', 'page'])
    expect([search.q, search.page]).toEqual(['drel', '2'])
    expect(Object.keys(searchAll)).toEqual(['q', 'page'])
    expect(searchOriginal).toBe('?q=drel&page=2')
    expect(href).toBe(`${PATHS.search}?q=drel&page=2`)
    expect(pageContext.urlOriginal).toBe(`${PATHS.search}?utm_source=ya&q=drel&ref=mail&page=2`)
  })

  it('fails a page in development that reads a parameter it does not declare, present in the URL or not', async () => {
    for (const url of [`${PATHS.search}?q=drel&ref=mail`, `${PATHS.search}?q=drel`]) {
      const pageContext = await render(
        url,
        searchReading((query) => query.ref),
      )
      expect(pageContext.httpResponse.statusCode, url).toBe(500)
      const error = pageContext.errorWhileRendering as Error
      expect(error.name, url).toBe('UndeclaredQueryError')
      expect(error.message).toContain('/pages/poisk reads the query parameter "ref"')
      expect(error.message).toContain('pageQuery')
    }
    const asked = await render(
      `${PATHS.search}?q=drel`,
      searchReading((query) => 'ref' in query),
    )
    expect(asked.httpResponse.statusCode).toBe(500)
    const declared = await render(
      `${PATHS.search}?q=drel`,
      searchReading((query) => [query.q, query.page]),
    )
    expect(declared.httpResponse.statusCode).toBe(200)
  })

  it('answers the first request of a path as its cache key answers it: other parameters never reach the page', async () => {
    // The first request of a path is rendered from its own URL; the page learns nothing of `ref`.
    const first = await t.app.inject({ url: `${SECTION}?ref=x&sort=price&sort=name` })
    expect([first.statusCode, first.headers.location]).toEqual([301, `${SECTION}?sort=price`])
    expect((await t.app.inject({ url: SECTION })).headers['x-vitrina-cache']).toBe('miss')
    const again = await t.app.inject({ url: `${SECTION}?ref=y&sort=price&sort=name` })
    expect([again.statusCode, again.headers.location]).toEqual([301, `${SECTION}?sort=price`])
  })

  it('renders every kind of page with an undeclared parameter in the URL, none reading it', async () => {
    const urls = [
      '/',
      SECTION,
      `${SECTION}?page=1`,
      '/structure/product',
      PATHS.search,
      `${PATHS.search}?q=drel`,
      PATHS.leadForm,
      PATHS.leadThanks,
      '/no-such-page',
      PATHS.admin,
    ]
    for (const url of urls) {
      const res = await t.app.inject({ url: `${url}${url.includes('?') ? '&' : '?'}ref=x` })
      expect([200, 301, 404], url).toContain(res.statusCode)
    }
  })

  it('shows the lead form its failure from ?oshibka=1, the parameter it declares', async () => {
    const page = await t.app.inject({ url: `${PATHS.leadForm}?oshibka=1&utm_source=ya` })
    expect(page.statusCode).toBe(200)
    expect(page.body).toContain(LEAD_FAILURE_TEXT)
    expect((await t.app.inject({ url: PATHS.leadForm })).body).not.toContain(LEAD_FAILURE_TEXT)
  })
})
