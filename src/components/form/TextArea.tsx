import { useLayoutEffect } from 'react'
import { controlAttributes, useOwnElement } from './control-attributes'
import { FieldShell } from './FieldShell'
import { fromFieldValue, toFieldValue } from './field-value'
import type { BaseFieldProps } from './field-props'
import './form.css'

type TextAreaProps = BaseFieldProps<HTMLTextAreaElement> & {
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
export function TextArea(props: TextAreaProps) {
  const { id, label, value, onChange, hint, error, rows = 3, maxLength, ref } = props
  const [elementRef, setElement] = useOwnElement(ref)
  const text = fromFieldValue(value)

  // Runs for changes from outside too (a reset form, a restored draft), not only for typing.
  useLayoutEffect(() => {
    if (elementRef.current) fitToContent(elementRef.current)
  }, [elementRef, text])

  return (
    <FieldShell id={id} label={label} hint={hint} error={error}>
      <textarea
        {...controlAttributes(props)}
        ref={setElement}
        className="field__control field__control--multiline"
        rows={rows}
        value={text}
        onChange={(event) => onChange?.(toFieldValue(event.target.value))}
        maxLength={maxLength}
      />
    </FieldShell>
  )
}
