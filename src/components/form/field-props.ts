import type { Ref } from 'react'

/** What every labelled input takes: the controlled value (empty reported as null) and its texts. */
export type BaseFieldProps<E extends HTMLElement> = {
  id: string
  label: string
  /** Form field name; defaults to `id`. */
  name?: string
  /** The current value; null and undefined show as an empty field. */
  value?: string | null
  /** Receives the new value, with an empty field reported as null. */
  onChange?: (value: string | null) => void
  onBlur?: () => void
  hint?: string
  placeholder?: string
  error?: string
  autoComplete?: string
  /**
   * Marks the field as required for assistive technology only: the browser's own required
   * check would pop up its own wording instead of the form's Russian messages.
   */
  required?: boolean
  disabled?: boolean
  ref?: Ref<E>
}
