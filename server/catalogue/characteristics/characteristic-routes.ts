// The back office's «Характеристики» (issue 46, docs/decisions/042-characteristics-and-filters.md), owner only:
//   GET /api/admin/characteristics        every characteristic products carry, in the owner's order
//   PUT /api/admin/characteristics/{id}   the owner's choices: the name and unit shown, shown or
//                                         not, a filter or not, the order; every page is dropped
import type { FastifyInstance } from 'fastify'
import type { Config } from '../../config/config'
import { createAdminCheck, requireAdmin } from '../../admin/access'
import { HttpError } from '../../http/http-error'
import { routeOf } from '../../http/route-path'
import { ADMIN_API_PATHS } from '../../../src/site/paths'
import { VENDOR_RANGE_ERROR } from '../../../src/catalogue/characteristics'
import { characteristicChangeOf } from './characteristic-change'
import { listCharacteristics, updateCharacteristic } from './characteristic-store'

export async function characteristicRoutes(app: FastifyInstance, { config }: { config: Config }) {
  const access = createAdminCheck(config.adminToken, app.adminSession)

  app.get(routeOf(app, ADMIN_API_PATHS.characteristics), async (request) => {
    requireAdmin(await access(request))
    return { data: await listCharacteristics(app.db) }
  })

  app.put<{ Params: { id: string } }>(routeOf(app, ADMIN_API_PATHS.characteristic(':id')), async (request) => {
    requireAdmin(await access(request))
    const id = /^[1-9]\d{0,9}$/.test(request.params.id) ? Number(request.params.id) : NaN
    const change = characteristicChangeOf(request.body)
    const outcome = Number.isFinite(id) ? await updateCharacteristic(app.writeDoor, id, change) : 'missing'
    if (outcome === 'missing') throw new HttpError(404, 'Нет такой характеристики', 'not_found')
    if (outcome === 'range')
      throw new HttpError(400, 'Проверьте характеристику', 'validation_failed', { filter: VENDOR_RANGE_ERROR })
    return { data: await listCharacteristics(app.db) }
  })
}
