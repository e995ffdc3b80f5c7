// A product's variants under /api/admin (session or admin token, a browser's writes from the site's
// own Origin; docs/contract.md §7, docs/decisions/043-variants.md):
//   GET    /products/{id}/variants               the variants with their option values (the editor's «Варианты»)
//   POST   /products/{id}/variants               a new variant: 201 { variantId }
//   PATCH  /products/{id}/variants/{variantId}   its price, old price, availability («Товары»' edit in
//                                                place), and in the editor its title, артикул and options
//   DELETE /products/{id}/variants/{variantId}   removes it
//   PUT    /products/{id}/variant-order          { ids }: the variants' order
// Each write is one unit of the write door, all or nothing, and an entry of the catalogue's audit log.
import { randomUUID } from 'node:crypto'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Config } from '../../config/config'
import { createAdminCheck, requireAdmin } from '../../admin/access'
import { auditActor } from '../../admin/audit-actor'
import { routeOf } from '../../http/route-path'
import { ADMIN_API_PATHS } from '../../../src/site/paths'
import { idOf, invalid } from './admin-input'
import { variantDraftOf } from './variant-input'
import { addVariant, editorVariants, editVariant, removeVariant, reorderVariants } from './variant-editor'

type VariantParams = { Params: { id: string; variantId: string } }

export async function variantEditorRoutes(app: FastifyInstance, { config }: { config: Config }) {
  const access = createAdminCheck(config.adminToken, app.adminSession)

  /** The catalogue's audit log: who changed which product's variant. */
  async function audit(request: FastifyRequest, productId: number, action: string) {
    const product = await app.db.selectFrom('structure').select('title').where('id', '=', productId).executeTakeFirst()
    const at = new Date().toISOString()
    await app.db
      .insertInto('catalogueAudit')
      .values({
        operation: `variant-${randomUUID()}`,
        at,
        lastAt: at,
        who: auditActor(request),
        action: `${action} («${product?.title ?? productId}»)`,
        count: 1,
      })
      .execute()
  }

  app.get<VariantParams>(routeOf(app, ADMIN_API_PATHS.productVariants(':id')), async (request) => {
    requireAdmin(await access(request))
    const id = idOf(request.params.id, 'id')
    return { data: await editorVariants(app.db, id, app.settings.current().exchangeOverwrite) }
  })

  app.post<VariantParams>(routeOf(app, ADMIN_API_PATHS.productVariants(':id')), async (request, reply) => {
    requireAdmin(await access(request))
    const id = idOf(request.params.id, 'id')
    const draft = variantDraftOf(request.body, true)
    const variantId = await addVariant(app.writeDoor, id, draft)
    await audit(request, id, `Добавлен вариант «${draft.title}»`)
    return reply.code(201).send({ data: { id, variantId } })
  })

  app.patch<VariantParams>(routeOf(app, ADMIN_API_PATHS.productVariant(':id', ':variantId')), async (request) => {
    requireAdmin(await access(request))
    const id = idOf(request.params.id, 'id')
    const variantId = idOf(request.params.variantId, 'variantId')
    const title = await editVariant(app.writeDoor, id, variantId, variantDraftOf(request.body, false))
    await audit(request, id, `Изменён вариант «${title}»`)
    return { data: { id, variantId } }
  })

  app.delete<VariantParams>(routeOf(app, ADMIN_API_PATHS.productVariant(':id', ':variantId')), async (request) => {
    requireAdmin(await access(request))
    const id = idOf(request.params.id, 'id')
    const variantId = idOf(request.params.variantId, 'variantId')
    const title = await removeVariant(app.writeDoor, id, variantId)
    await audit(request, id, `Удалён вариант «${title}»`)
    return { data: { id, variantId } }
  })

  app.put<VariantParams>(routeOf(app, ADMIN_API_PATHS.productVariantOrder(':id')), async (request) => {
    requireAdmin(await access(request))
    const id = idOf(request.params.id, 'id')
    const ids = ((request.body ?? {}) as { ids?: unknown }).ids
    if (!Array.isArray(ids) || ids.length > 1000 || !ids.every((v) => Number.isInteger(v) && v > 0)) {
      invalid('ids', 'Порядок вариантов — список их id')
    }
    await reorderVariants(app.writeDoor, id, ids as number[])
    await audit(request, id, 'Изменён порядок вариантов')
    return { data: { id } }
  })
}
