import type { FastifyRequest } from 'fastify'
import { describe, expect, it } from 'vitest'
import { auditActor, shownActor } from './audit-actor'

const request = (authorization?: string) => ({ headers: authorization ? { authorization } : {} }) as FastifyRequest

describe('who the audit logs name', () => {
  it('names a back-office session «владелец» and the bearer token «токен»', () => {
    expect(auditActor(request())).toBe('владелец')
    expect(auditActor(request('Bearer secret'))).toBe('токен')
  })

  it('shows entries written as «сессия» as «владелец», and the others as they are', () => {
    expect(shownActor('сессия')).toBe('владелец')
    expect(shownActor('токен')).toBe('токен')
  })
})
