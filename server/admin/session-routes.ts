// Signing in and out of the back office (docs/contract.md, "Back office"):
//   POST   /api/admin/session { secret }   204 + the session cookie; 401, 429, 403
//   GET    /api/admin/session              200 { data: { signedIn, expiresAt, timeZone, signInWith } } or 401
//   DELETE /api/admin/session              204, the session deleted and the cookie cleared
import type { FastifyInstance } from 'fastify'
import type { Config } from '../config/config'
import { HttpError } from '../http/http-error'
import { requireSameOrigin } from './origin-check'
import { routeOf } from '../http/route-path'
import { ADMIN_API_PATHS } from '../../src/site/paths'

/** Nothing signs in yet: only the one-time link printed at start can choose the owner's password. */
const NOT_CONFIGURED =
  'Пароль владельца ещё не задан. Ссылка, по которой его можно задать, напечатана в консоли сервера при запуске.'
const WRONG_SECRET = 'Неверный пароль'

export async function sessionRoutes(app: FastifyInstance, { config }: { config: Config }) {
  const sessions = app.adminSession

  app.addHook('onRequest', async () => {
    if ((await sessions.signInMethod()) === 'none') throw new HttpError(403, NOT_CONFIGURED, 'not_configured')
  })

  app.post(routeOf(app, ADMIN_API_PATHS.session), async (request, reply) => {
    requireSameOrigin(request, sessions.publicUrl)
    const secret = (request.body as { secret?: unknown } | null)?.secret
    if (typeof secret !== 'string' || secret === '') {
      throw new HttpError(400, 'Введите пароль', 'validation_failed', { secret: 'Введите пароль' })
    }
    // The same count of failed credentials as a wrong bearer token's (credential-guard.ts): 429 past it.
    const attempt = await sessions.guard.attempt(request)
    if (secret.length > 1000 || !(await sessions.matches(secret))) {
      request.log.info('admin sign-in refused')
      throw new HttpError(401, WRONG_SECRET, 'wrong_secret', { secret: WRONG_SECRET })
    }
    await attempt.matched()
    await sessions.start(reply)
    request.log.info('admin signed in')
    return reply.code(204).send()
  })

  app.get(routeOf(app, ADMIN_API_PATHS.session), async (request) => {
    const session = await sessions.read(request)
    if (!session) throw new HttpError(401, 'Войдите в админку', 'unauthorized')
    // The zone the owner reads dates in (SITE_TIMEZONE): the pages format the inbox's UTC times in it.
    // signInWith: what the owner signs in with, so «Сменить пароль» knows whether it can.
    const signInWith = await sessions.signInMethod()
    return { data: { signedIn: true, expiresAt: session.expiresAt, timeZone: config.siteTimezone, signInWith } }
  })

  app.delete(routeOf(app, ADMIN_API_PATHS.session), async (request, reply) => {
    requireSameOrigin(request, sessions.publicUrl)
    // Also without a live session: the answer clears whatever cookie the browser still has.
    await sessions.end(request, reply)
    return reply.code(204).send()
  })
}
