// Which errors mean "the database is not there right now" rather than "this request is wrong":
// they answer 503 with Retry-After-friendly text (docs/contract.md §3), never 500.

/** Network errors of a server that is not (yet) there, as opposed to a wrong password or name. */
export const TRANSIENT_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
])
/** PostgreSQL's own "starting up / shutting down / too many connections" states. */
export const TRANSIENT_SQLSTATES = new Set(['57P03', '57P01', '53300'])

// SQLite: locked past the busy timeout, or the file cannot be read or written.
const SQLITE_UNAVAILABLE = /^SQLITE_(BUSY|LOCKED|IOERR|CANTOPEN|FULL)/
// node-postgres reports a dropped or unobtainable connection by message only. Any line of it: a
// renderer may put its own line in front (Vike does in development).
const PG_CONNECTION_LOST =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)/m

/** True for an error that says the database is unreachable or busy, not that the query is wrong. */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false
  const { code, message } = error as { code?: unknown; message?: unknown }
  if (typeof code === 'string') {
    if (TRANSIENT_CODES.has(code) || TRANSIENT_SQLSTATES.has(code)) return true
    if (code.startsWith('08')) return true // SQLSTATE class 08: connection exception
    if (SQLITE_UNAVAILABLE.test(code)) return true
  }
  return typeof message === 'string' && PG_CONNECTION_LOST.test(message)
}
