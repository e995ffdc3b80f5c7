// Routes are declared with the site's paths (src/site/paths.ts), not with a second copy of them.
import type { FastifyInstance } from 'fastify'

/**
 * A full path of the map as a route of a plugin registered under a prefix: `/api/admin/leads`
 * inside the plugin at `/api/admin` is `/leads`. A plugin registered anywhere else fails at start-up
 * instead of answering at a path no link points to.
 */
export function routeOf(app: FastifyInstance, path: string): string {
  if (!path.startsWith(`${app.prefix}/`)) throw new Error(`${path} is not a route under ${app.prefix || '/'}`)
  return path.slice(app.prefix.length)
}
