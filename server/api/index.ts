// Everything under /api: JSON in and out. Registers each resource plugin, nothing else.
import type { FastifyInstance } from 'fastify'
import type { Config } from '../config'
import { errorBody } from '../plugins/errors'

export async function apiRoutes(app: FastifyInstance, _opts: { config: Config }) {
  // Unknown API paths are JSON 404s, never an HTML page from the SSR catch-all.
  app.all('/*', async (_request, reply) => reply.code(404).send(errorBody(404)))
}
