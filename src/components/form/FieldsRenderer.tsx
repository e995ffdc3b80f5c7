import { useId } from 'react'
import type { FieldDefinition } from './field-definition'
import { fieldKind } from './field-definition'
import { fieldErrorText } from './field-error'
import type { FieldError } from './field-error'
import { classNames } from './field-value'
import { PhoneInput } from './PhoneInput'
import { TextArea } from './TextArea'
import { TextInput } from './TextInput'
import './form.css'

type FieldsRendererProps = {
  fields: readonly FieldDefinition[]
  /** Values by field id; a missing value shows as an empty input. */
  values: Readonly<Record<string, string | null | undefined>>
  /** Errors by field id: Russian text, or an error type looked up under the field's validator group. */
  errors?: Readonly<Record<string, FieldError | null | undefined>>
  onChange: (id: string, value: string | null) => void
  onBlur?: (id: string) => void
  /**
   * Prefix of the DOM ids; defaults to a React id, so the same form can appear twice on a page
   * (header and footer dialogs) without duplicate ids. Field names stay the plain field ids.
   */
  idPrefix?: string
  disabled?: boolean
  className?: string
}

/**
 * A form section built from field definitions: a textarea for type 'textarea', the masked phone
 * input for 'tel', a single-line input for anything else. Each field shows the message for its
 * error type from its validator's message group.
 */
export function FieldsRenderer({
  fields,
  values,
  errors,
  onChange,
  onBlur,
  idPrefix,
  disabled,
  className,
}: FieldsRendererProps) {
  const reactId = useId()
  const prefix = idPrefix ?? `${reactId}-`

  return (
    <div className={classNames('fields', className)}>
      {fields.map((field) => {
        const common = {
          id: `${prefix}${field.id}`,
          name: field.id,
          label: field.label,
          hint: field.hint,
          placeholder: field.placeholder,
          error: fieldErrorText(errors?.[field.id], field.validator),
          value: values[field.id],
          onChange: (value: string | null) => onChange(field.id, value),
          onBlur: onBlur ? () => onBlur(field.id) : undefined,
          autoComplete: field.autoComplete,
          required: field.required,
          disabled,
        }
        const kind = fieldKind(field.type)
        if (kind === 'textarea') {
          return <TextArea key={field.id} {...common} rows={field.rows} maxLength={field.maxLength} />
        }
        if (kind === 'tel') return <PhoneInput key={field.id} {...common} />
        return (
          <TextInput key={field.id} {...common} type={kind} maxLength={field.maxLength} inputMode={field.inputMode} />
        )
      })}
    </div>
  )
}
