// Everything under /api/admin: the session and the lead inbox. Encapsulated, so its error handler
// (the Russian message and field errors of each HttpError) and `no-store` stay inside it; nothing
// the owner sees is kept by a browser or proxy cache.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Config } from '../config'
import { clampStatus, HttpError } from '../http/http-error'
import { errorBody } from '../http/errors'
import { leadRoutes } from '../leads/inbox/inbox-routes'
import { sessionRoutes } from './session-routes'

export async function adminRoutes(app: FastifyInstance, { config }: { config: Config }) {
  app.addHook('onRequest', async (_request, reply) => {
    reply.header('cache-control', 'no-store')
  })

  app.setErrorHandler((error: FastifyError | HttpError, request: FastifyRequest, reply: FastifyReply) => {
    reply.header('cache-control', 'no-store')
    if (error instanceof HttpError) {
      const body: Record<string, unknown> = errorBody(error.statusCode, error.message, error.code)
      if (error.errors) body.errors = error.errors
      return reply.code(error.statusCode).send(body)
    }
    const status = clampStatus(error)
    if (status >= 500) {
      request.log.error({ err: error }, 'admin request failed')
      return reply.code(status).send(errorBody(status))
    }
    request.log.info({ code: error.code, status }, 'admin request rejected')
    return reply.code(status).send(errorBody(status))
  })

  await app.register(sessionRoutes, { config })
  await app.register(leadRoutes, { config })
}
