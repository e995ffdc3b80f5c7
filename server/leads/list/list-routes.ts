// POST /moya-zayavka: the request list's changes as plain forms (docs/decisions/041-request-list.md).
// One urlencoded form per change: `action` (add, set, remove), `productId`, `quantity` (or a card's
// `add=<productId>` and `quantity`). The list
// lives in the cookie `vitrina_list` (product ids and quantities only), so this route writes no
// row: it reads the cookie, changes it and sets it again. A form post answers 303 to the list
// page; a script's request (Accept: application/json) gets the list's size as JSON. A refused
// change is the list page again with a Russian message (a form) or a JSON error, and the cookie
// as it was. An encapsulated plugin: its body parser applies to this route only.
import formbody from '@fastify/formbody'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Config } from '../../config/config'
import { errorBody } from '../../http/errors'
import { FOREIGN_ORIGIN_MESSAGE, isSameOrigin } from '../../admin/origin-check'
import {
  changeRequestList,
  requestListCookie,
  requestListOfCookies,
  validProductId,
  validQuantity,
  type ListChange,
} from '../../../src/lead/request-list'
import { REQUEST_LIST_TEXTS } from '../../../src/lead/request-list-view'
import { PATHS } from '../../../src/site/paths'

/** A change is three short fields: a kilobyte is plenty. */
const BODY_LIMIT = 1024
const FORM_TYPE = 'application/x-www-form-urlencoded'

/**
 * The change a form asks for, or the Russian reason it is refused. A card's form says `add=<id>`
 * (its button's name and value: no hidden fields on a page of cards), the same as `action=add`
 * with `productId=<id>`.
 */
export function listChangeOf(body: unknown): ListChange | { error: string } {
  const posted = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {}
  const fields = posted.add === undefined ? posted : { ...posted, action: 'add', productId: posted.add }
  const productId = validProductId(fields.productId)
  if (productId === null) return { error: REQUEST_LIST_TEXTS.badRequest }
  // The product's variant (docs/decisions/043-variants.md): an id, or absent for the product itself.
  const variantId =
    fields.variantId === undefined || fields.variantId === '' ? undefined : validProductId(fields.variantId)
  if (variantId === null || (variantId !== undefined && variantId > 2_147_483_647))
    return { error: REQUEST_LIST_TEXTS.badRequest }
  const variant = variantId === undefined ? {} : { variantId }
  if (fields.action === 'remove') return { action: 'remove', productId, ...variant }
  if (fields.action !== 'add' && fields.action !== 'set') return { error: REQUEST_LIST_TEXTS.badRequest }
  const quantity = fields.quantity === undefined && fields.action === 'add' ? 1 : validQuantity(fields.quantity)
  if (quantity === null) return { error: REQUEST_LIST_TEXTS.badQuantity }
  return { action: fields.action, productId, ...variant, quantity }
}

export async function requestListRoutes(app: FastifyInstance, { config }: { config: Config }) {
  app.removeContentTypeParser('text/plain')
  app.removeContentTypeParser('application/json')
  await app.register(formbody, { bodyLimit: BODY_LIMIT })
  const secure = config.publicUrl.startsWith('https:')

  const wantsJson = (request: FastifyRequest) => (request.headers.accept ?? '').includes('application/json')

  async function refuse(request: FastifyRequest, reply: FastifyReply, status: number, message: string) {
    if (wantsJson(request)) return reply.code(status).send(errorBody(status, message))
    reply.header('cache-control', 'no-store')
    return app.pages.answer(request, reply, { url: PATHS.requestList, context: { requestListNotice: message }, status })
  }

  app.post(PATHS.requestList, { bodyLimit: BODY_LIMIT }, async (request, reply) => {
    // A form posted from another site must not fill a visitor's list (a missing Origin is let through).
    if (request.headers.origin !== undefined && !isSameOrigin(request, config.publicUrl)) {
      return reply.code(403).send(errorBody(403, FOREIGN_ORIGIN_MESSAGE, 'foreign_origin'))
    }
    if (!(request.headers['content-type'] ?? '').toLowerCase().startsWith(FORM_TYPE)) {
      return reply.code(415).send(errorBody(415))
    }
    const change = listChangeOf(request.body)
    if ('error' in change) return refuse(request, reply, 400, change.error)
    if (change.action !== 'remove') {
      const entry = await app.content.entryById(change.productId)
      const variant = change.variantId
        ? await app.db
            .selectFrom('productVariant')
            .select('id')
            .where('id', '=', change.variantId)
            .where('productId', '=', change.productId)
            .executeTakeFirst()
        : true
      if (entry?.typeId !== 'product' || entry.state !== 'public' || !variant) {
        return refuse(request, reply, 404, REQUEST_LIST_TEXTS.unknownProduct)
      }
    }
    const list = changeRequestList(requestListOfCookies(request.headers.cookie), change)
    if (list === 'full') return refuse(request, reply, 409, REQUEST_LIST_TEXTS.full)
    reply.header('set-cookie', requestListCookie(list, secure)).header('cache-control', 'no-store')
    if (wantsJson(request)) return reply.send({ data: { count: list.length } })
    return reply.code(303).header('location', PATHS.requestList).send()
  })
}
