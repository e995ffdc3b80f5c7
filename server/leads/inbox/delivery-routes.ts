// The lead outbox for the owner's tools (npm run leads -- deliveries | retry, the back office):
//   GET  /api/deliveries?status=pending,dead&after=ID   the deliveries not sent, oldest first, 500 to a
//                                              page with `next: { after }` while more are left
//   POST /api/deliveries/retry {ids:[…]} | {dead:true}   back in the queue, due now
// Admin token only; no personal data beyond the lead's number and the channel's error.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Config } from '../../config/config'
import type { DeliveryStatus } from '../../data/schema'
import { listDeliveries, retryDeliveries } from '../store/delivery-outbox'
import { errorBody } from '../../http/errors'
import { createAdminCheck } from '../../admin/access'
import { FOREIGN_ORIGIN_MESSAGE } from '../../admin/origin-check'
import { routeOf } from '../../http/route-path'
import { PATHS } from '../../../src/site/paths'

const STATUSES: readonly DeliveryStatus[] = ['pending', 'dead', 'sent']
/** Deliveries in one answer; `next.after` asks for the rest */
const DELIVERY_PAGE = 500

const retryBodySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    ids: { type: 'array', minItems: 1, maxItems: 1000, items: { type: 'integer', minimum: 1 } },
    dead: { type: 'boolean', const: true },
  },
  oneOf: [{ required: ['ids'] }, { required: ['dead'] }],
} as const

export async function deliveryRoutes(app: FastifyInstance, { config }: { config: Config }) {
  const access = createAdminCheck(config.adminToken, app.adminSession)

  // Before the body is looked at: without the token, nothing about the request is answered.
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    reply.header('cache-control', 'no-store')
    const who = await access(request)
    if (who === 'admin') return
    if (who === 'missing') {
      return reply
        .code(401)
        .send(errorBody(401, 'Нужна авторизация: войдите в админку или передайте токен администратора'))
    }
    if (who === 'foreign_origin') return reply.code(403).send(errorBody(403, FOREIGN_ORIGIN_MESSAGE, 'foreign_origin'))
    return reply.code(403).send(errorBody(403))
  })

  app.get(routeOf(app, PATHS.deliveries), async (request, reply) => {
    const query = request.query as { status?: unknown; after?: unknown }
    const raw = query.status
    const wanted = typeof raw === 'string' && raw !== '' ? raw.split(',') : ['pending', 'dead']
    if (!wanted.every((status) => (STATUSES as readonly string[]).includes(status))) {
      return reply.code(400).send(errorBody(400, 'Статус доставки: pending, dead или sent'))
    }
    const after = query.after === undefined || query.after === '' ? 0 : Number(query.after)
    if (typeof query.after === 'string' && query.after !== '' && !/^[1-9]\d{0,9}$/.test(query.after)) {
      return reply.code(400).send(errorBody(400, 'Параметр after: номер последней доставки предыдущей страницы'))
    }
    const { items, more } = await listDeliveries(app.db, wanted as DeliveryStatus[], DELIVERY_PAGE, after)
    const last = items.at(-1)
    return { data: items, next: more && last ? { after: last.id } : null }
  })

  app.post(routeOf(app, PATHS.deliveriesRetry), { schema: { body: retryBodySchema } }, async (request) => {
    const body = request.body as { ids?: number[]; dead?: true }
    const queued = await retryDeliveries(app.db, body.dead ? 'dead' : { ids: body.ids ?? [] })
    if (queued.length > 0) app.leadDelivery.wake()
    return { data: { queued } }
  })
}
