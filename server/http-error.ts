// One error type for every handler: a status, a machine code and, where the client should read
// one, a Russian message (docs/contract.md §6). Fastify's own errors carry statusCode too, so
// clampStatus() reads either.
import type { FastifyError } from 'fastify'

export class HttpError extends Error {
  readonly statusCode: number
  readonly code: string
  /** Russian text for the client; the status's default text when absent */
  readonly publicMessage: string | undefined
  /** Per-field Russian messages of a failed validation */
  readonly fields: Readonly<Record<string, string>> | undefined

  constructor(
    statusCode: number,
    code: string,
    options: { message?: string; fields?: Record<string, string>; cause?: unknown } = {},
  ) {
    super(code, options.cause === undefined ? undefined : { cause: options.cause })
    this.name = 'HttpError'
    this.statusCode = statusCode
    this.code = code
    this.publicMessage = options.message
    this.fields = options.fields
  }
}

/** The status to answer for any thrown value: its own 4xx/5xx status, else 500. */
export function clampStatus(error: unknown): number {
  const status = (error as Partial<FastifyError> | null)?.statusCode
  return typeof status === 'number' && Number.isInteger(status) && status >= 400 && status < 600 ? status : 500
}
