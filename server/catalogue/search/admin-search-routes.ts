// The back office's search (issue 27, docs/decisions/030-search.md), for the owner only (session or
// token, the same check as every admin API):
//   GET /api/admin/search?q=   records of any kind and state by title, артикул (any form) or the
//                              beginning of their URL: { data: [{ id, title, urlFull, typeId, published }] }, at most 20
import type { FastifyInstance } from 'fastify'
import type { Config } from '../../config/config'
import { HttpError } from '../../http/http-error'
import { SEARCH_LIMITS } from './search-query'
import { createAdminCheck, requireAdmin } from '../../admin/access'
import { routeOf } from '../../http/route-path'
import { ADMIN_API_PATHS } from '../../../src/site/paths'

export async function searchRoutes(app: FastifyInstance, { config }: { config: Config }) {
  const access = createAdminCheck(config.adminToken, app.adminSession)
  app.addHook('onRequest', async (request) => requireAdmin(await access(request)))

  app.get(routeOf(app, ADMIN_API_PATHS.search), async (request) => {
    const { q } = request.query as Record<string, unknown>
    if (q !== undefined && typeof q !== 'string') {
      throw new HttpError(400, 'Параметр q: одна строка запроса', 'invalid_query', { q: 'Ожидается строка' })
    }
    if (q !== undefined && [...q].length > SEARCH_LIMITS.maxChars) {
      throw new HttpError(400, `Запрос длиннее ${SEARCH_LIMITS.maxChars} символов`, 'invalid_query', {
        q: `Не больше ${SEARCH_LIMITS.maxChars} символов`,
      })
    }
    return { data: await app.catalogueSearch.records(q ?? '') }
  })
}
