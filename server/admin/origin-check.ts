// Cross-site request refusal for cookie-authenticated writes: a browser sends the session cookie
// with a form posted from any site (SameSite=Strict aside, for older browsers and subdomains), but
// it always says where the request comes from in Origin. A state-changing request is accepted
// only when Origin is the site itself: PUBLIC_URL's origin, or the origin the request was sent to.
import type { FastifyRequest } from 'fastify'
import { HttpError } from '../http/http-error'

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

export const FOREIGN_ORIGIN_MESSAGE = 'Запрос с чужого сайта отклонён'

export function changesState(request: FastifyRequest): boolean {
  return !SAFE_METHODS.has(request.method)
}

/** Whether the request's Origin header names this site (a missing Origin does not). */
export function isSameOrigin(request: FastifyRequest, publicUrl: string): boolean {
  const origin = request.headers.origin
  if (typeof origin !== 'string' || origin === '' || origin === 'null') return false
  if (origin === new URL(publicUrl).origin) return true
  return origin === `${request.protocol}://${request.host}`
}

/** Throws 403 unless the request comes from the site itself. */
export function requireSameOrigin(request: FastifyRequest, publicUrl: string): void {
  if (!isSameOrigin(request, publicUrl)) throw new HttpError(403, FOREIGN_ORIGIN_MESSAGE, 'foreign_origin')
}
