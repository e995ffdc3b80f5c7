// One error type for every handler: a status, a machine code, the Russian text the client reads
// and, for a failed validation, the Russian message of each field (docs/contract.md §3).
// Fastify's own errors carry statusCode too, so clampStatus() reads either.
import type { FastifyError } from 'fastify'
import { isDatabaseUnavailable } from '../data/unavailable'

export class HttpError extends Error {
  override readonly name = 'HttpError'

  constructor(
    readonly statusCode: number,
    message: string,
    readonly code: string,
    /** Per-field Russian messages of a failed validation */
    readonly errors?: Readonly<Record<string, string>>,
    /** Seconds until the client may try again (429, 503): sent as Retry-After */
    readonly retryAfter?: number,
  ) {
    super(message)
  }
}

/**
 * The status to answer for any thrown value: its own 4xx/5xx status; 503 when the database is
 * unreachable or busy (the client may try again); else 500.
 */
export function clampStatus(error: unknown): number {
  const status = (error as Partial<FastifyError> | null)?.statusCode
  if (typeof status === 'number' && Number.isInteger(status) && status >= 400 && status < 600) return status
  return isDatabaseUnavailable(error) ? 503 : 500
}
