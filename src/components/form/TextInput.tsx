import type { HTMLAttributes } from 'react'
import { controlAttributes } from './control-attributes'
import type { TextInputType } from './field-definition'
import { FieldShell } from './FieldShell'
import { fromFieldValue, toFieldValue } from './field-value'
import type { BaseFieldProps } from './field-props'
import './form.css'

type TextInputProps = BaseFieldProps<HTMLInputElement> & {
  type?: TextInputType
  inputMode?: HTMLAttributes<HTMLInputElement>['inputMode']
  maxLength?: number
}

/** A labelled single-line input with hint and error text; controlled. */
export function TextInput(props: TextInputProps) {
  const { id, label, type = 'text', value, onChange, hint, error, inputMode, maxLength, ref } = props
  // type="email" is drawn as text: Chrome rewrites an internationalised domain to punycode and
  // every browser refuses Cyrillic before the «@» (https://github.com/whatwg/html/issues/4562),
  // while the spec accepts «иван@пример.рф». inputMode keeps the e-mail keyboard on phones.
  const isEmail = type === 'email'
  return (
    <FieldShell id={id} label={label} hint={hint} error={error}>
      <input
        {...controlAttributes(props)}
        ref={ref}
        type={isEmail ? 'text' : type}
        inputMode={inputMode ?? (isEmail ? 'email' : undefined)}
        autoCapitalize={isEmail ? 'none' : undefined}
        spellCheck={isEmail ? false : undefined}
        value={fromFieldValue(value)}
        onChange={(event) => onChange?.(toFieldValue(event.target.value))}
        maxLength={maxLength}
      />
    </FieldShell>
  )
}
