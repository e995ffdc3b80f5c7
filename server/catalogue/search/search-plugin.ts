// The catalogue search (docs/decisions/030-search.md) as a decorator: `app.catalogueSearch` serves the
// /poisk page (through pageContext) and the back office. At start, records without index rows (a
// database from before the search, the demo shop just seeded, a tool that wrote rows directly)
// are indexed first, so nothing that exists is missing from the results.
import fp from 'fastify-plugin'
import { fillMissingSearchIndex } from './search-index'
import { CatalogueSearch } from './search-service'

declare module 'fastify' {
  interface FastifyInstance {
    catalogueSearch: CatalogueSearch
  }
}

export const searchPlugin = fp(
  async (app) => {
    const indexed = await fillMissingSearchIndex(app.db)
    if (indexed > 0) app.log.info({ records: indexed }, 'search index: records indexed at start')
    app.decorate('catalogueSearch', new CatalogueSearch(app.db))
  },
  { name: 'search', dependencies: ['db', 'content'] },
)
