import { useCallback, useLayoutEffect, useRef } from 'react'
import { FieldShell } from './FieldShell'
import { assignRef, fieldAria, fromFieldValue, toFieldValue } from './field-value'
import type { BaseFieldProps } from './field-props'
import './form.css'

export type TextAreaProps = BaseFieldProps<HTMLTextAreaElement> & {
  /** Rows shown while empty; the textarea grows from there. */
  rows?: number
  maxLength?: number
}

// Browsers with CSS `field-sizing: content` (form.css) grow the textarea themselves; older ones
// get their height set from scrollHeight after each change.
function fitToContent(textarea: HTMLTextAreaElement): void {
  if (typeof CSS !== 'undefined' && CSS.supports('field-sizing', 'content')) return
  textarea.style.height = 'auto'
  const borders = textarea.offsetHeight - textarea.clientHeight
  textarea.style.height = `${textarea.scrollHeight + borders}px`
}

/** A labelled multi-line input that grows with its content; controlled. */
export function TextArea({
  id,
  label,
  name,
  value,
  onChange,
  onBlur,
  hint,
  placeholder,
  error,
  autoComplete,
  rows = 3,
  required,
  disabled,
  maxLength,
  ref,
}: TextAreaProps) {
  const element = useRef<HTMLTextAreaElement | null>(null)
  const text = fromFieldValue(value)

  const setElement = useCallback(
    (node: HTMLTextAreaElement | null) => {
      element.current = node
      assignRef(ref, node)
    },
    [ref],
  )

  // Runs for changes from outside too (a reset form, a restored draft), not only for typing.
  useLayoutEffect(() => {
    if (element.current) fitToContent(element.current)
  }, [text])

  return (
    <FieldShell id={id} label={label} hint={hint} error={error}>
      <textarea
        ref={setElement}
        className="field__control field__control--multiline"
        id={id}
        name={name ?? id}
        rows={rows}
        value={text}
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
