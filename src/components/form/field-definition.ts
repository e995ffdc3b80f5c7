import type { MessageGroup } from '../../validation/messages-ru'

/** The HTML input types a single-line text field supports. */
export type TextInputType = 'text' | 'email' | 'tel' | 'url' | 'search' | 'password'

/** How a field definition is drawn. */
type FieldKind = 'textarea' | 'tel' | TextInputType

/**
 * One field of a form built by FieldsRenderer. `type` is a plain string because definitions may
 * come from content data; an unknown type is drawn as a single-line text input.
 */
export type FieldDefinition = {
  readonly id: string
  readonly type: string
  readonly label: string
  readonly hint?: string
  readonly placeholder?: string
  /** The message group that names this field's errors, such as 'string'. */
  readonly validator?: MessageGroup
  readonly autoComplete?: string
  readonly required?: boolean
  readonly maxLength?: number
  /** The on-screen keyboard of a single-line input, such as 'numeric' for a price */
  readonly inputMode?: 'numeric' | 'decimal' | 'email' | 'tel' | 'url' | 'text'
  /** Initial rows of a textarea. */
  readonly rows?: number
}

const TEXT_INPUT_TYPES: ReadonlySet<string> = new Set<TextInputType>([
  'text',
  'email',
  'tel',
  'url',
  'search',
  'password',
])

/** Which component draws a field type: the textarea, the phone input, or a text input of that type. */
export function fieldKind(type: string): FieldKind {
  if (type === 'textarea') return 'textarea'
  return TEXT_INPUT_TYPES.has(type) ? (type as TextInputType) : 'text'
}
