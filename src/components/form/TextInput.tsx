import type { HTMLAttributes } from 'react'
import type { TextInputType } from './field-definition'
import { FieldShell } from './FieldShell'
import { fieldAria, fromFieldValue, toFieldValue } from './field-value'
import type { BaseFieldProps } from './field-props'
import './form.css'

export type TextInputProps = BaseFieldProps<HTMLInputElement> & {
  type?: TextInputType
  inputMode?: HTMLAttributes<HTMLInputElement>['inputMode']
  maxLength?: number
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
