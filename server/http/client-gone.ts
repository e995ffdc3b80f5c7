// A client that goes away in the middle of an answer (a tab closed, a phone off the network, a
// browser dropping a request it no longer needs) is not a failure of the site: whatever reports it
// (@fastify/compress logs the end-of-stream package's «premature close» at error level, Fastify its
// stream errors, a handler the EPIPE of its write) is logged at debug. Only when the request's own
// connection is gone: the same error codes from the database, with the client still there, keep
// their level. Wired into the logger in server/app.ts.
import type { IncomingMessage } from 'node:http'
import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify'

const DEBUG = 20
const REQUEST = Symbol('the raw request a child logger logs for')
const DISCONNECT_CODES = new Set([
  'ERR_STREAM_PREMATURE_CLOSE',
  'ERR_STREAM_DESTROYED',
  'ECONNRESET',
  'EPIPE',
  'ECONNABORTED',
])

type RequestLogger = FastifyBaseLogger & { [REQUEST]?: IncomingMessage }

/** The error a log call carries: `log.error(err)` or `log.error({ err }, message)`. */
function errorIn(args: readonly unknown[]): unknown {
  const first = args[0]
  if (first instanceof Error) return first
  return typeof first === 'object' && first !== null ? (first as { err?: unknown }).err : undefined
}

/** Whether the error says the connection of this request closed under the answer. */
export function isClientGone(error: unknown, request: IncomingMessage | undefined): boolean {
  if (!request?.socket?.destroyed || typeof error !== 'object' || error === null) return false
  const { code, message } = error as { code?: unknown; message?: unknown }
  return (
    (typeof code === 'string' && DISCONNECT_CODES.has(code)) ||
    (typeof message === 'string' && /^premature close$/i.test(message))
  )
}

/** Fastify's request loggers, each knowing its request (FastifyServerOptions.childLoggerFactory). */
export const childLoggerFactory: NonNullable<FastifyServerOptions['childLoggerFactory']> = function (
  logger,
  bindings,
  options,
  rawRequest,
) {
  const child = logger.child(bindings, options) as RequestLogger
  child[REQUEST] = rawRequest
  return child
}

/** Fastify's own line for a streamed answer whose client left (it carries no error). */
const FASTIFY_STREAM_CLOSED = 'stream closed prematurely'

/** pino's logMethod hook: a client's disconnect is written at debug, whatever level it was logged at. */
export function logMethod(
  this: RequestLogger,
  args: Parameters<FastifyBaseLogger['info']>,
  method: (...args: unknown[]) => void,
  level: number,
): void {
  const request = this[REQUEST]
  const gone =
    isClientGone(errorIn(args), request) || (args[1] === FASTIFY_STREAM_CLOSED && request?.socket?.destroyed === true)
  if (level > DEBUG && gone) {
    this.debug(...(args as [object, string]))
    return
  }
  method.apply(this, args)
}
