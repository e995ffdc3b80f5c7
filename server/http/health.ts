// GET /healthz (the process answers) and GET /readyz (the database answers and its schema is
// current) for PM2, load balancers and monitoring. JSON, never cached, nothing in them names a
// visitor. Anyone may ask whether the site is ready; what the owner sees besides (the channels, the
// delivery backlog, the journal, the last 1C exchange) needs the admin token or session: it tells a stranger too much.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { pendingMigrations } from '../data/db'

function noStore(reply: FastifyReply): FastifyReply {
  return reply.header('cache-control', 'no-store').type('application/json; charset=utf-8')
}

interface HealthOptions {
  /** Whether the request is the owner's (server/admin/access.ts); throws 429 past the failed-credentials limit */
  readonly isOwner: (request: FastifyRequest) => Promise<boolean>
  /** What the owner also sees: the last 1C exchange, when the site has one (catalogue/exchange) */
  readonly extraDetails?: () => Promise<Record<string, unknown>>
}

export async function healthRoutes(app: FastifyInstance, { isOwner, extraDetails }: HealthOptions) {
  // Leads accepted while the database was down, not yet stored, and leads the database refused
  // for good, waiting for the owner in the dead-letter file (both normally 0).
  const journalState = () => ({ bytes: app.leadJournal.bytes(), deadLetters: app.leadJournal.deadLetters().length })

  app.get('/healthz', async (_request, reply) => noStore(reply).send({ status: 'ok' }))

  /** The owner's view of readiness: what is configured, waiting and stuck. */
  async function details(pending: number) {
    return {
      database: 'ok',
      pendingMigrations: pending,
      delivery: { channels: app.leadDelivery.channels, ...(await app.leadDelivery.stats()) },
      journal: journalState(),
      ...(extraDetails ? await extraDetails() : {}),
    }
  }

  app.get('/readyz', async (request, reply) => {
    const owner = await isOwner(request)
    let pending: number
    let detail: Record<string, unknown>
    try {
      pending = await pendingMigrations(app.db)
      detail = owner ? await details(pending) : {}
    } catch (error) {
      request.log.warn({ code: (error as { code?: string }).code }, 'readiness check: database unreachable')
      const unreachable = { database: 'unreachable', journal: journalState() }
      return noStore(reply)
        .code(503)
        .send({ status: 'unavailable', ...(owner ? unreachable : {}) })
    }
    const ready = pending === 0
    return noStore(reply)
      .code(ready ? 200 : 503)
      .send({ status: ready ? 'ready' : 'unavailable', ...detail })
  })
}
