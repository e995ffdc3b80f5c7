// The one answer to "is this request the owner?": the bearer token (`Authorization: Bearer
// <ADMIN_TOKEN>`, CLI tools) or the back office's session cookie (server/admin/session-plugin.ts).
// A session authorises exactly what the token does; its state-changing requests must also come
// from the site itself (Origin), which a bearer token, never sent by a browser on its own, needs not.
// Tokens are hashed first, so timingSafeEqual always compares 32 bytes and the length of the real
// token does not leak either. Every way in goes through the guard of failed credentials
// (credential-guard.ts): past its limit the check throws 429, whatever the credentials.
import { createHash, timingSafeEqual } from 'node:crypto'
import type { FastifyRequest } from 'fastify'
import { HttpError } from '../http/http-error'
import type { CredentialGuard } from './credential-guard'
import { changesState, FOREIGN_ORIGIN_MESSAGE, isSameOrigin } from './origin-check'

type AdminAccess = 'admin' | 'missing' | 'wrong' | 'unconfigured' | 'foreign_origin'

/** What createAdminCheck needs of the session mechanism (app.adminSession and the site's origin). */
interface SessionSource {
  read(request: FastifyRequest): Promise<unknown>
  readonly publicUrl: string
  /** Counts wrong secrets per address; absent in tests of the check alone */
  readonly guard?: CredentialGuard
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest()

/**
 * Reads the request's bearer token or session (no session source: the token alone).
 * Throws 429 when the client's address is past the limit of failed credentials.
 */
export function createAdminCheck(adminToken: string | null, sessions: SessionSource | null = null) {
  const expected = adminToken === null ? null : sha256(adminToken)
  return async function access(request: FastifyRequest): Promise<AdminAccess> {
    const header = request.headers.authorization
    if (typeof header === 'string' && header.trim() !== '') {
      if (expected === null) return 'unconfigured'
      // Counted before it is compared, given back when it matches.
      const attempt = await sessions?.guard?.attempt(request)
      const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header)
      if (!match || !timingSafeEqual(sha256(match[1]), expected)) return 'wrong'
      await attempt?.matched()
      return 'admin'
    }
    if (sessions && (await sessions.read(request)) !== null) {
      await sessions.guard?.check(request)
      return changesState(request) && !isSameOrigin(request, sessions.publicUrl) ? 'foreign_origin' : 'admin'
    }
    // Without a token the owner may still sign in: the password chosen in the back office.
    if (expected === null && !sessions) return 'unconfigured'
    return 'missing'
  }
}

/** Throws 401 without a token or session, 403 with a wrong token, a foreign Origin or nothing configured. */
export function requireAdmin(access: AdminAccess): void {
  if (access === 'admin') return
  if (access === 'missing')
    throw new HttpError(401, 'Нужна авторизация: войдите в админку или передайте токен администратора', 'unauthorized')
  if (access === 'foreign_origin') throw new HttpError(403, FOREIGN_ORIGIN_MESSAGE, 'foreign_origin')
  if (access === 'unconfigured')
    throw new HttpError(403, 'Доступ запрещён: токен администратора не настроен', 'forbidden')
  throw new HttpError(403, 'Доступ запрещён: неверный токен', 'forbidden')
}
