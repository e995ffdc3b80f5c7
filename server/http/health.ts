// GET /healthz (the process answers) and GET /readyz (the database answers, its schema is
// current; the lead outbox's backlog) for PM2, load balancers and monitoring. JSON, never
// cached, and nothing in them names a visitor.
import type { FastifyInstance, FastifyReply } from 'fastify'
import { pendingMigrations } from '../data/db'
import { outboxStats, type OutboxStats } from '../leads/delivery/outbox'

function noStore(reply: FastifyReply): FastifyReply {
  return reply.header('cache-control', 'no-store').type('application/json; charset=utf-8')
}

export async function healthRoutes(app: FastifyInstance) {
  // Leads accepted while the database was down, not yet stored, and leads the database refused
  // for good, waiting for the owner in the dead-letter file (both normally 0).
  const journalState = () => ({ bytes: app.leadJournal.bytes(), deadLetters: app.leadJournal.deadLetters().length })

  app.get('/healthz', async (_request, reply) => noStore(reply).send({ status: 'ok' }))

  app.get('/readyz', async (request, reply) => {
    let pending: number
    let outbox: OutboxStats
    try {
      pending = await pendingMigrations(app.db)
      outbox = await outboxStats(app.db)
    } catch (error) {
      request.log.warn({ code: (error as { code?: string }).code }, 'readiness check: database unreachable')
      return noStore(reply).code(503).send({ status: 'unavailable', database: 'unreachable', journal: journalState() })
    }
    const ready = pending === 0
    return noStore(reply)
      .code(ready ? 200 : 503)
      .send({
        status: ready ? 'ready' : 'unavailable',
        database: 'ok',
        pendingMigrations: pending,
        delivery: { channels: app.leadDelivery.channels, ...outbox },
        journal: journalState(),
      })
  })
}
