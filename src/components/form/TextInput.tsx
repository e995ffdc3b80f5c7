import type { HTMLAttributes, Ref } from 'react'
import type { TextInputType } from './field-definition'
import { FieldShell } from './FieldShell'
import { fieldAria, fromFieldValue, toFieldValue } from './field-value'
import './form.css'

export type TextInputProps = {
  id: string
  label: string
  /** Form field name; defaults to `id`. */
  name?: string
  type?: TextInputType
  /** The current value; null and undefined show as an empty input. */
  value?: string | null
  /** Receives the new value, with an empty input reported as null. */
  onChange?: (value: string | null) => void
  onBlur?: () => void
  hint?: string
  placeholder?: string
  error?: string
  autoComplete?: string
  inputMode?: HTMLAttributes<HTMLInputElement>['inputMode']
  /**
   * Marks the field as required for assistive technology only: the browser's own required
   * check would pop up its own wording instead of the form's Russian messages.
   */
  required?: boolean
  disabled?: boolean
  maxLength?: number
  ref?: Ref<HTMLInputElement>
}

/** A labelled single-line input with hint and error text; controlled. */
export function TextInput({
  id,
  label,
  name,
  type = 'text',
  value,
  onChange,
  onBlur,
  hint,
  placeholder,
  error,
  autoComplete,
  inputMode,
  required,
  disabled,
  maxLength,
  ref,
}: TextInputProps) {
  // type="email" is drawn as text: Chrome rewrites an internationalised domain to punycode and
  // every browser refuses Cyrillic before the «@» (https://github.com/whatwg/html/issues/4562),
  // while the spec accepts «иван@пример.рф». inputMode keeps the e-mail keyboard on phones.
  const isEmail = type === 'email'
  return (
    <FieldShell id={id} label={label} hint={hint} error={error}>
      <input
        ref={ref}
        className="field__control"
        id={id}
        name={name ?? id}
        type={isEmail ? 'text' : type}
        inputMode={inputMode ?? (isEmail ? 'email' : undefined)}
        autoCapitalize={isEmail ? 'none' : undefined}
        spellCheck={isEmail ? false : undefined}
        value={fromFieldValue(value)}
        onChange={(event) => onChange?.(toFieldValue(event.target.value))}
        onBlur={onBlur}
        placeholder={placeholder}
        autoComplete={autoComplete}
        aria-required={required || undefined}
        disabled={disabled}
        maxLength={maxLength}
        {...fieldAria(id, { hint, error })}
      />
    </FieldShell>
  )
}
