// A product's variants under /api/admin (session or admin token, a browser's writes from the site's
// own Origin; docs/contract.md §7, docs/decisions/043-variants.md):
//   GET    /products/{id}/variants               the variants with their option values (the editor's «Варианты»)
//   POST   /products/{id}/variants               a new variant: 201 { variantId }
//   PATCH  /products/{id}/variants/{variantId}   its price, old price, availability («Товары»' edit in
//                                                place), and in the editor its title, артикул, picture and options
//   DELETE /products/{id}/variants/{variantId}   removes it
//   PUT    /products/{id}/variant-order          { ids }: the variants' order
// A write is JSON, or multipart as the write API's (docs/contract.md §3: `data` with the JSON and the
// picture as the file `image`), checked and put in the media store with its sizes before the write.
// Each write is one unit of the write door, all or nothing, and an entry of the catalogue's audit log.
// Encapsulated: its multipart parser and limits stay inside it.
import { randomUUID } from 'node:crypto'
import multipart from '@fastify/multipart'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Config } from '../../config/config'
import { createAdminCheck, requireAdmin } from '../../admin/access'
import { auditActor } from '../../admin/audit-actor'
import { routeOf } from '../../http/route-path'
import { createErrorHandler } from '../../http/errors'
import { HttpError } from '../../http/http-error'
import { IMAGE_LIMITS } from '../../media/image-store'
import { storeUpload } from '../../media/store-upload'
import { multipartError, readMultipartWrite } from '../../media/multipart-write'
import { ADMIN_API_PATHS } from '../../../src/site/paths'
import { idOf, invalid } from './admin-input'
import { variantDraftOf } from './variant-input'
import { addVariant, editorVariants, editVariant, removeVariant, reorderVariants } from './variant-editor'

type VariantParams = { Params: { id: string; variantId: string } }

/** One picture and the `data` field */
const MULTIPART_LIMITS = { fileSize: IMAGE_LIMITS.maxBytes, files: 1, fields: 1, parts: 2, fieldSize: 64 * 1024 }

export async function variantEditorRoutes(app: FastifyInstance, { config }: { config: Config }) {
  const access = createAdminCheck(config.adminToken, app.adminSession)
  await app.register(multipart, { limits: MULTIPART_LIMITS, throwFileSizeLimit: true })
  app.setErrorHandler(
    createErrorHandler({
      scope: 'admin',
      headers: { 'cache-control': 'no-store' },
      translate: (error) =>
        error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
          ? new HttpError(415, 'Ожидается JSON или multipart/form-data с картинкой', 'unsupported_media_type')
          : multipartError(error),
    }),
  )

  /**
   * The write's draft, its picture checked and, once the draft is read, stored with its sizes before
   * the write (a write refused later leaves that file alone: the same bytes are always one file).
   */
  async function draftOf(request: FastifyRequest, creating: boolean) {
    if (!request.isMultipart()) return { draft: variantDraftOf(request.body, creating), uploaded: null }
    const { values, files } = await readMultipartWrite(request, 'productVariant', [/^image$/])
    const draft = variantDraftOf(values, creating)
    for (const file of files) await storeUpload(app.mediaStorage, file.value, file.path, request.log)
    return { draft, uploaded: files[0]?.value.relativePath ?? null }
  }
  const overwrite = () => app.settings.current().exchangeOverwrite

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
    return { data: await editorVariants(app.db, id, overwrite()) }
  })

  app.post<VariantParams>(routeOf(app, ADMIN_API_PATHS.productVariants(':id')), async (request, reply) => {
    requireAdmin(await access(request))
    const id = idOf(request.params.id, 'id')
    const { draft, uploaded } = await draftOf(request, true)
    const variantId = await addVariant(app.writeDoor, id, draft, { uploaded, overwrite: overwrite() })
    await audit(request, id, `Добавлен вариант «${draft.title}»`)
    return reply.code(201).send({ data: { id, variantId } })
  })

  app.patch<VariantParams>(routeOf(app, ADMIN_API_PATHS.productVariant(':id', ':variantId')), async (request) => {
    requireAdmin(await access(request))
    const id = idOf(request.params.id, 'id')
    const variantId = idOf(request.params.variantId, 'variantId')
    const { draft, uploaded } = await draftOf(request, false)
    const title = await editVariant(app.writeDoor, id, variantId, draft, { uploaded, overwrite: overwrite() })
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
