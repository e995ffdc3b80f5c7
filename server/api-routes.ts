// Everything under /api: JSON in and out. Registers each resource plugin, nothing else.
import type { FastifyInstance } from 'fastify'
import type { Config } from './config/config'
import { adminRoutes } from './admin-routes'
import { errorBody } from './http/errors'
import { cspReportRoutes } from './site/csp-report'
import { cookieChoiceRoutes } from './privacy/cookie-choices'
import { deliveryRoutes } from './leads/inbox/delivery-routes'
import { leadsRoutes } from './leads/intake/intake-routes'
import { modelRoutes } from './model-api/routes'
import { routeOf } from './http/route-path'
import { PATHS } from '../src/site/paths'

export async function apiRoutes(app: FastifyInstance, { config }: { config: Config }) {
  // POST /api/feedback (the lead form): its own validator, parsers and rate limit.
  await app.register(leadsRoutes, { config })
  // The lead outbox for the owner's tools: admin token only.
  await app.register(deliveryRoutes, { config })
  // Reports of what the Content-Security-Policy blocked: small, rate-limited, logged without data.
  await app.register(cspReportRoutes)
  // The cookie notice's choices, logged as the lead consent is (small, rate-limited).
  await app.register(cookieChoiceRoutes, {
    now: () => app.privacy.now(),
    versions: () => app.content.cookieVersions(),
  })
  // The back office: sign-in, sign-out and the lead inbox (session or admin token).
  await app.register(adminRoutes, { prefix: routeOf(app, PATHS.adminApi), config })
  // Generic model reads and content writes (GET/POST/PATCH /api/:model …); never writes feedback.
  await app.register(modelRoutes, { config })
  // Unknown API paths are JSON 404s, never an HTML page from the SSR catch-all.
  app.all('/*', async (_request, reply) => reply.code(404).send(errorBody(404)))
}
