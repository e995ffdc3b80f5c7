// Who did it, as the audit logs (the catalogue's and the settings') name them. There is one owner:
// the back office's session is «владелец», the bearer token of the command-line tools «токен».
// Rows written before this rule say «сессия»; they are read as «владелец» too.
import type { FastifyRequest } from 'fastify'

export type AuditActor = 'владелец' | 'токен'

/** The actor of a request the access check already let through. */
export function auditActor(request: FastifyRequest): AuditActor {
  return /^Bearer\s/i.test(request.headers.authorization ?? '') ? 'токен' : 'владелец'
}

/** A stored actor as the back office shows it. */
export function shownActor(stored: string): string {
  return stored === 'сессия' ? 'владелец' : stored
}
