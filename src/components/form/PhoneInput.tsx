import { useLayoutEffect, useRef } from 'react'
import { controlAttributes, useOwnElement } from './control-attributes'
import { FieldShell } from './FieldShell'
import { toFieldValue } from './field-value'
import { dropTypedTrunkPrefix, editRuPhone, PHONE_MASK, toMaskedRuPhone } from './phone-mask'
import type { BaseFieldProps } from './field-props'
import './form.css'

/**
 * `value` may be the masked text this input reports or any phone text to format; `onChange`
 * receives the masked text («+7 (999) 123-45-67»). The placeholder defaults to the mask itself.
 */
type PhoneInputProps = BaseFieldProps<HTMLInputElement>

/**
 * A labelled Russian phone input with the mask «+7 (___) ___-__-__». Each edit is applied in its
 * `beforeinput` event from the value and selection before it (editRuPhone), synchronously: mask
 * libraries that learn the selection from a timer drop a key pressed before the timer ran (a fast
 * typist on a busy phone; GoncharukOrg/react-input#59). Pasted or autofilled numbers with a
 * country prefix («8 999 123-45-67», «+79991234567») lose the prefix instead of shifting every
 * digit. Edits the browser makes on its own (autofill, a keyboard's composition, undo) are
 * reformatted after the fact. The field is uncontrolled, so a render that lags behind a key press
 * never puts an older value back; a value set from outside still shows.
 */
export function PhoneInput(props: PhoneInputProps) {
  const { id, label, value, onChange, hint, placeholder = PHONE_MASK, error, autoComplete = 'tel', ref } = props
  const [elementRef, setElement] = useOwnElement(ref)
  // What this input last reported: a `value` prop equal to it is its own echo.
  const reported = useRef<string | null>(null)
  const masked = toMaskedRuPhone(value)

  useLayoutEffect(() => {
    const node = elementRef.current
    if (node && node.value !== masked && masked !== reported.current) node.value = masked
  }, [elementRef, masked])

  const report = (node: HTMLInputElement, text: string, caret: number) => {
    node.value = text
    if (document.activeElement === node) node.setSelectionRange(caret, caret)
    reported.current = text
    onChange?.(toFieldValue(text))
  }
  const latestReport = useRef(report)
  useLayoutEffect(() => {
    latestReport.current = report
  })

  // A native listener: React's onBeforeInput is a polyfill from other events, without inputType.
  useLayoutEffect(() => {
    const node = elementRef.current
    if (!node) return
    const onBeforeInput = (event: InputEvent) => {
      if (!event.cancelable || node.selectionStart === null || node.selectionEnd === null) return
      const data = event.data ?? event.dataTransfer?.getData('text/plain') ?? ''
      const edit = editRuPhone(node.value, node.selectionStart, node.selectionEnd, event.inputType ?? '', data)
      if (!edit) return
      event.preventDefault()
      latestReport.current(node, edit.value, edit.caret)
    }
    node.addEventListener('beforeinput', onBeforeInput)
    return () => node.removeEventListener('beforeinput', onBeforeInput)
  }, [elementRef])

  return (
    <FieldShell id={id} label={label} hint={hint} error={error}>
      <input
        {...controlAttributes({ ...props, placeholder, autoComplete })}
        ref={setElement}
        type="tel"
        inputMode="tel"
        defaultValue={masked}
        onChange={(event) => {
          // An edit the browser made itself (autofill, composition, undo): reformat the whole value.
          const node = event.target
          const text = dropTypedTrunkPrefix(toMaskedRuPhone(node.value))
          report(node, text, text.length)
        }}
      />
    </FieldShell>
  )
}
