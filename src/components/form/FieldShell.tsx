import type { ReactNode } from 'react'
import { classNames, fieldTextIds } from './field-value'
import './form.css'

type FieldShellProps = {
  /** The control's DOM id, which the label points at. */
  id: string
  label: string
  hint?: string
  error?: string
  className?: string
  children: ReactNode
}

/**
 * Label, hint, control and error of one field. The hint sits above the control so it is read
 * before typing; the error sits right under the control, where the eye goes after submitting.
 */
export function FieldShell({ id, label, hint, error, className, children }: FieldShellProps) {
  const ids = fieldTextIds(id)
  return (
    <div className={classNames('field', error && 'field--invalid', className)}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      {hint ? (
        <p className="field__hint" id={ids.hint}>
          {hint}
        </p>
      ) : null}
      {children}
      {error ? (
        <p className="field__error" id={ids.error}>
          {error}
        </p>
      ) : null}
    </div>
  )
}
