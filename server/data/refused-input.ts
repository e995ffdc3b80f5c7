// Which storage errors are the input's fault, a value the database will not hold, rather than
// ours or the database's absence: the request is answered 400, never journaled, never a 500.

/** PostgreSQL's class 22, data exception: a NUL (22021), a value too long (22001), and the like. */
const PG_DATA_EXCEPTION = /^22[0-9A-Z]{3}$/
/** SQLite: a string or blob over its size limit, a value of the wrong type for its column. */
const SQLITE_REFUSED = /^SQLITE_(TOOBIG|MISMATCH)$/

export function isRefusedInput(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false
  const { code } = error as { code?: unknown }
  return typeof code === 'string' && (PG_DATA_EXCEPTION.test(code) || SQLITE_REFUSED.test(code))
}
