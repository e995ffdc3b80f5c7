// Choosing the owner's password (docs/contract.md §7, docs/decisions/038-first-sign-in.md):
//   POST /api/admin/setup    { token, password }    204 + the session cookie: the first password,
//                                                   with the one-time link printed at start
//   PUT  /api/admin/password { current, password }  204: a new password; every other session ends
// Both count a wrong link or a wrong current password in the failed-credentials limit, as a wrong
// sign-in does; a refused body writes nothing; ADMIN_PASSWORD, when set, wins and neither applies.
import type { FastifyInstance } from 'fastify'
import type { Config } from '../config/config'
import { HttpError } from '../http/http-error'
import { routeOf } from '../http/route-path'
import { requireSameOrigin } from './origin-check'
import { isSetupLinkLive, setFirstPassword, storePassword } from './owner-password'
import { hashPassword } from './password-hash'
import { passwordProblem, type PasswordChange, type SetupRequest } from '../../src/admin/admin-password'
import { ADMIN_API_PATHS } from '../../src/site/paths'

const LINK_INVALID =
  'Ссылка для установки пароля недействительна: она устарела или уже использована. ' +
  'Перезапустите сервер — в консоли появится новая.'
const LINK_INCOMPLETE = 'Ссылка неполная: скопируйте её из консоли сервера целиком'
const FROM_ENVIRONMENT = 'Пароль задан переменной окружения ADMIN_PASSWORD: его меняют на сервере'
const ALREADY_SET = 'Пароль уже задан: войдите с ним'
const WRONG_CURRENT = 'Неверный текущий пароль'
const ENTER_CURRENT = 'Введите текущий пароль'

/** Small JSON bodies only: two short strings. */
const ROUTE_OPTIONS = { bodyLimit: 8 * 1024 }

type Body<T> = Partial<Record<keyof T, unknown>> | null

export async function passwordRoutes(app: FastifyInstance, { config }: { config: Config }) {
  const sessions = app.adminSession

  app.post(routeOf(app, ADMIN_API_PATHS.setup), ROUTE_OPTIONS, async (request, reply) => {
    requireSameOrigin(request, config.publicUrl)
    if (config.adminPassword !== null) throw new HttpError(409, FROM_ENVIRONMENT, 'password_from_environment')
    const body = request.body as Body<SetupRequest>
    const { token, password } = { token: body?.token, password: body?.password }
    if (typeof token !== 'string' || token === '' || token.length > 200) {
      throw new HttpError(400, LINK_INCOMPLETE, 'validation_failed')
    }
    const problem = passwordProblem(password)
    if (problem !== null) throw new HttpError(400, problem, 'validation_failed', { password: problem })
    // A guessed link counts as a wrong password does (credential-guard.ts): 429 past the limit.
    const attempt = await sessions.guard.attempt(request)
    // Checked before the costly hash, then spent with the password in one transaction.
    if (!(await isSetupLinkLive(app.db, token, sessions.now()))) {
      request.log.info('owner password setup refused: the link is unknown, spent or expired')
      throw new HttpError(403, LINK_INVALID, 'setup_link_invalid')
    }
    const result = await setFirstPassword(app.db, token, await hashPassword(password as string), sessions.now())
    if (result === 'invalid_link') throw new HttpError(403, LINK_INVALID, 'setup_link_invalid')
    if (result === 'already_set') throw new HttpError(409, ALREADY_SET, 'password_already_set')
    await attempt.matched()
    // Signed in at once; a session the token may have started before ends.
    await sessions.endOthers(await sessions.start(reply))
    request.log.info('owner password set with the one-time link')
    return reply.code(204).send()
  })

  app.put(routeOf(app, ADMIN_API_PATHS.password), ROUTE_OPTIONS, async (request, reply) => {
    requireSameOrigin(request, config.publicUrl)
    const session = await sessions.read(request)
    if (!session) throw new HttpError(401, 'Войдите в админку', 'unauthorized')
    await sessions.guard.check(request)
    if (config.adminPassword !== null) throw new HttpError(409, FROM_ENVIRONMENT, 'password_from_environment')
    const body = request.body as Body<PasswordChange>
    const { current, password } = { current: body?.current, password: body?.password }
    const errors: Record<string, string> = {}
    if (typeof current !== 'string' || current === '') errors.current = ENTER_CURRENT
    const problem = passwordProblem(password)
    if (problem !== null) errors.password = problem
    const first = errors.current ?? errors.password
    if (first !== undefined) throw new HttpError(400, first, 'validation_failed', errors)
    const attempt = await sessions.guard.attempt(request)
    if ((current as string).length > 1000 || !(await sessions.matches(current as string))) {
      request.log.info('owner password change refused: wrong current password')
      throw new HttpError(403, WRONG_CURRENT, 'wrong_secret', { current: WRONG_CURRENT })
    }
    await attempt.matched()
    await storePassword(app.db, await hashPassword(password as string), sessions.now())
    await sessions.endOthers(session)
    request.log.info('owner password changed; the other sessions ended')
    return reply.code(204).send()
  })
}
