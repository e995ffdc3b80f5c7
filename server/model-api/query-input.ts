// What both halves of the query parser share (query-parser.ts for select, relations and paging,
// query-where.ts for filters): the 400 they throw and the count of nodes one query may hold.
import { HttpError } from '../http/http-error'
import { QUERY_LIMITS } from './query-tree'

/** Throws the 400 of a malformed query, with the Russian message under the query path it concerns. */
export function bad(message: string, path?: string): never {
  throw new HttpError(400, message, 'invalid_query', path ? { [path]: message } : undefined)
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
  const proto: unknown = Object.getPrototypeOf(value)
  return proto === Object.prototype || proto === null
}

/** Keys and values looked at in one query, across select, where and orderBy. */
export class Budget {
  private used = 0
  spend(path: string, count = 1) {
    this.used += count
    if (this.used > QUERY_LIMITS.maxNodes) bad('Запрос слишком сложный: упростите select и where', path)
  }
}
