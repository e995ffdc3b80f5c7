// The admin token check: `Authorization: Bearer <ADMIN_TOKEN>`, compared in constant time.
// Both sides are hashed first, so timingSafeEqual always compares 32 bytes and the length of the
// real token does not leak either.
import { createHash, timingSafeEqual } from 'node:crypto'
import type { FastifyRequest } from 'fastify'
import { HttpError } from '../../http-error'

type AdminAccess = 'admin' | 'missing' | 'wrong' | 'unconfigured'

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest()

/** Reads the request's bearer token against the configured one (null: none configured). */
export function createAdminCheck(adminToken: string | null) {
  const expected = adminToken === null ? null : sha256(adminToken)
  return function access(request: FastifyRequest): AdminAccess {
    const header = request.headers.authorization
    if (expected === null) return 'unconfigured'
    if (typeof header !== 'string' || header.trim() === '') return 'missing'
    const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header)
    if (!match) return 'wrong'
    return timingSafeEqual(sha256(match[1]), expected) ? 'admin' : 'wrong'
  }
}

/** Throws 401 without a token and 403 with a wrong one or when no token is configured. */
export function requireAdmin(access: AdminAccess): void {
  if (access === 'admin') return
  if (access === 'missing')
    throw new HttpError(401, 'Нужна авторизация: передайте токен администратора', 'unauthorized')
  if (access === 'unconfigured')
    throw new HttpError(403, 'Доступ запрещён: токен администратора не настроен', 'forbidden')
  throw new HttpError(403, 'Доступ запрещён: неверный токен', 'forbidden')
}
