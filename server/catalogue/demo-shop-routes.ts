// «Убрать демо-магазин» (issue 45): GET /api/admin/demo-shop says how many of the demo shop's
// products are left (the back office offers the action while any are); DELETE removes the demo's
// catalogue, slides and advantages in one write (demo-seed.ts) and says what went.
import type { FastifyInstance } from 'fastify'
import type { Config } from '../config/config'
import { createAdminCheck, requireAdmin } from '../admin/access'
import { routeOf } from '../http/route-path'
import { ADMIN_API_PATHS } from '../../src/site/paths'
import { demoProductsLeft, removeDemoShop } from './demo-seed'

export async function demoShopRoutes(app: FastifyInstance, { config }: { config: Config }) {
  const access = createAdminCheck(config.adminToken, app.adminSession)

  app.get(routeOf(app, ADMIN_API_PATHS.demoShop), async (request) => {
    requireAdmin(await access(request))
    return { data: { products: await demoProductsLeft(app.writeDoor) } }
  })

  app.delete(routeOf(app, ADMIN_API_PATHS.demoShop), async (request) => {
    requireAdmin(await access(request))
    const removed = await removeDemoShop(app.writeDoor)
    request.log.info({ removed: { products: removed.products, sections: removed.sections } }, 'demo shop removed')
    return { data: removed }
  })
}
