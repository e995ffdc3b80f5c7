import { useMask } from '@react-input/mask'
import { useCallback } from 'react'
import { FieldShell } from './FieldShell'
import { assignRef, fieldAria, toFieldValue } from './field-value'
import { dropTypedTrunkPrefix, PHONE_MASK, PHONE_REPLACEMENT, toMaskedRuPhone, trackRuPhone } from './phone-mask'
import type { BaseFieldProps } from './field-props'
import './form.css'

/**
 * `value` may be the masked text this input reports or any phone text to format; `onChange`
 * receives the masked text («+7 (999) 123-45-67»). The placeholder defaults to the mask itself.
 */
export type PhoneInputProps = BaseFieldProps<HTMLInputElement>

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
        onChange={(event) => onChange?.(toFieldValue(dropTypedTrunkPrefix(event.target.value)))}
        onBlur={onBlur}
        placeholder={placeholder}
        aria-required={required || undefined}
        disabled={disabled}
        {...fieldAria(id, { hint, error })}
      />
    </FieldShell>
  )
}
