// Failed credentials, counted per client address for every way into the back office (issue #21
// item 8): a bearer token on any admin or write route, the sign-in form's secret, a session cookie.
// One key space in the shared counter (server/http/rate-limit-store.ts), so every PM2 worker and
// host sees the same count. A secret is counted before it is compared and the count is given back
// when it matches, so a burst of parallel guesses cannot all slip in before the first is counted.
// Past the limit every way in answers 429 with Retry-After until the window passes, the right
// secret too: otherwise the limit only tells a guesser which of its guesses to keep. While the
// database is unreachable nothing can be counted and the owner still needs /readyz: the guard lets
// the request through (a guesser cannot take the database away) and says so in the log.
import type { FastifyRequest } from 'fastify'
import type { Db } from '../data/db'
import { isDatabaseUnavailable } from '../data/unavailable'
import { HttpError } from '../http/http-error'
import { countRequest, peekCount, uncount } from '../http/rate-limit-store'

/** Wrong secrets an address may send in a window; the next request with credentials gets 429. */
export const CREDENTIAL_LIMIT = Object.freeze({ failures: 5, windowMs: 60_000 })

export const TOO_MANY_ATTEMPTS = 'Слишком много попыток входа. Попробуйте через минуту.'

export interface CredentialGuard {
  /** Counts an attempt of the request's address before its secret is compared: 429 past the limit. */
  attempt(request: FastifyRequest): Promise<{ matched(): Promise<void> }>
  /** Throws 429 while the request's address is past the limit, without counting (a session cookie). */
  check(request: FastifyRequest): Promise<void>
}

function keyOf(request: FastifyRequest): string {
  return `failed-credentials\u0000${request.ip}`
}

function tooMany(ttlMs: number): never {
  throw new HttpError(429, TOO_MANY_ATTEMPTS, 'rate_limited', undefined, ttlMs / 1000)
}

/** The count, or null when the database cannot be reached to take it. */
async function counted<T>(request: FastifyRequest, count: () => Promise<T>): Promise<T | null> {
  try {
    return await count()
  } catch (error) {
    if (!isDatabaseUnavailable(error)) throw error
    request.log.warn('failed credentials not counted: the database is unreachable')
    return null
  }
}

export function createCredentialGuard(db: Db, now: () => Date): CredentialGuard {
  const { failures, windowMs } = CREDENTIAL_LIMIT
  return {
    async attempt(request) {
      const key = keyOf(request)
      const count = await counted(request, () => countRequest(db, key, windowMs, now().getTime()))
      if (count && count.current > failures) tooMany(count.ttl)
      return { matched: async () => void (count && (await counted(request, () => uncount(db, key)))) }
    },
    async check(request) {
      const count = await counted(request, () => peekCount(db, keyOf(request), windowMs, now().getTime()))
      if (count && count.current >= failures) tooMany(count.ttl)
    },
  }
}
