import { messageRu } from '../../validation/messages-ru'
import type { MessageLimit } from '../../validation/messages-ru'

/** An error by type, put into words with the field's message group («validator»). */
export type FieldIssue = {
  readonly type: string
  readonly limit?: MessageLimit
}

/**
 * A field's error: ready Russian text (as the server and validateLead send it) or an error type
 * to look up under the field's message group.
 */
export type FieldError = string | FieldIssue

/**
 * The text to show under a field, or undefined when there is none.
 *
 * @example fieldErrorText({ type: 'max', limit: 190 }, 'string') // 'Не более 190 символов'
 */
export function fieldErrorText(error: FieldError | null | undefined, validator = 'any'): string | undefined {
  if (error === null || error === undefined || error === '') return undefined
  if (typeof error === 'string') return error
  return messageRu(validator, error.type, error.limit)
}
