import { useMask } from '@react-input/mask'
import { useCallback } from 'react'
import type { Ref } from 'react'
import { FieldShell } from './FieldShell'
import { assignRef, fieldAria, toFieldValue } from './field-value'
import { PHONE_MASK, PHONE_REPLACEMENT, toMaskedRuPhone, trackRuPhone } from './phone-mask'
import './form.css'

export type PhoneInputProps = {
  id: string
  label: string
  /** Form field name; defaults to `id`. */
  name?: string
  /** The current value: masked text as this input reports it, or any phone text to format. */
  value?: string | null
  /** Receives the masked text («+7 (999) 123-45-67»), with an empty input reported as null. */
  onChange?: (value: string | null) => void
  onBlur?: () => void
  hint?: string
  /** Defaults to the mask itself, so the visitor sees the expected shape before typing. */
  placeholder?: string
  error?: string
  autoComplete?: string
  /** Marks the field as required for assistive technology only (see TextInput). */
  required?: boolean
  disabled?: boolean
  ref?: Ref<HTMLInputElement>
}

/**
 * A labelled Russian phone input with the mask «+7 (___) ___-__-__». Pasted or autofilled
 * numbers with a country prefix («8 999 123-45-67», «+79991234567») lose the prefix instead of
 * shifting every digit (see trackRuPhone). Reports the masked text; normalizeRuPhone turns it
 * into E.164 where a canonical form is needed.
 */
export function PhoneInput({
  id,
  label,
  name,
  value,
  onChange,
  onBlur,
  hint,
  placeholder = PHONE_MASK,
  error,
  autoComplete = 'tel',
  required,
  disabled,
  ref,
}: PhoneInputProps) {
  const maskRef = useMask({ mask: PHONE_MASK, replacement: PHONE_REPLACEMENT, track: trackRuPhone })

  // The mask's ref is a proxy that starts masking when an element is assigned to it, so the
  // element goes to it first and to the caller's ref second.
  const setElement = useCallback(
    (node: HTMLInputElement | null) => {
      const mask: { current: HTMLInputElement | null } = maskRef
      mask.current = node
      assignRef(ref, node)
    },
    [maskRef, ref],
  )

  return (
    <FieldShell id={id} label={label} hint={hint} error={error}>
      <input
        ref={setElement}
        className="field__control"
        id={id}
        name={name ?? id}
        type="tel"
        inputMode="tel"
        autoComplete={autoComplete}
        value={toMaskedRuPhone(value)}
        onChange={(event) => onChange?.(toFieldValue(event.target.value))}
        onBlur={onBlur}
        placeholder={placeholder}
        aria-required={required || undefined}
        disabled={disabled}
        {...fieldAria(id, { hint, error })}
      />
    </FieldShell>
  )
}
