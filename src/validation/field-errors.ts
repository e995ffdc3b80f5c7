import type { ErrorObject } from 'ajv'
import { messageForAjvError, messagesRu } from './messages-ru'

/** Key for errors about the value as a whole (a body that is not an object, for example). */
export const ROOT_ERROR_KEY = '_form'

// RFC 6901 escapes inside ajv's instancePath.
function decodePointerSegment(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~')
}

/**
 * The field an ajv error belongs to, as a dot path (`username`, `items.0.title`). A missing or
 * unknown property is reported under its own name rather than under its parent object, so the
 * form can show «Поле обязательно» beside the right input.
 */
export function fieldOfAjvError(error: ErrorObject): string {
  const path = error.instancePath.split('/').slice(1).map(decodePointerSegment)
  const params = error.params as Record<string, unknown>
  if (error.keyword === 'required' && typeof params.missingProperty === 'string') {
    path.push(params.missingProperty)
  } else if (error.keyword === 'additionalProperties' && typeof params.additionalProperty === 'string') {
    path.push(params.additionalProperty)
  }
  return path.length > 0 ? path.join('.') : ROOT_ERROR_KEY
}

// Messages that outrank the others of a field, strongest first: a blank 500-character name is
// missing, not too long; a phone with a line break in it is to be fixed there, whatever else.
const RANKED: readonly string[] = [messagesRu.any.required, messagesRu.string.line, messagesRu.string.control]
const rank = (message: string) => (RANKED.includes(message) ? RANKED.indexOf(message) : RANKED.length)

/**
 * Russian messages keyed by field, one per field. The first error of a field wins, except that
 * «Поле обязательно», then a control character's message, outrank anything else.
 */
export function fieldErrorsFromAjv(errors: readonly ErrorObject[]): Record<string, string> {
  const byField = new Map<string, string>()
  for (const error of errors) {
    const field = fieldOfAjvError(error)
    const message = messageForAjvError(error)
    const current = byField.get(field)
    if (current === undefined || rank(message) < rank(current)) byField.set(field, message)
  }
  // fromEntries defines own properties, so a field named «__proto__» cannot touch the prototype.
  return Object.fromEntries(byField)
}
