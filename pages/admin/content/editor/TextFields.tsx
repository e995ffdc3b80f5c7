import type { FieldDefinition } from '../../../../src/components/form/field-definition'
import { FieldsRenderer } from '../../../../src/components/form/FieldsRenderer'

interface TextFieldsProps<T> {
  fields: readonly FieldDefinition[]
  /** The draft (or a part of it) whose string properties the fields edit */
  values: T
  onChange: (patch: Partial<T>) => void
  /** The server's errors by path ('index.tel'): each field shows the one at `errorPath + id` */
  errors: Readonly<Record<string, string>>
  errorPath?: string
  /** DOM ids are `idPrefix + id` ('record-title', 'product-price') */
  idPrefix: string
}

/** Text fields of a record form, drawn by the shared FieldsRenderer; an emptied field is ''. */
export function TextFields<T extends object>({
  fields,
  values,
  onChange,
  errors,
  errorPath = '',
  idPrefix,
}: TextFieldsProps<T>) {
  const own = Object.fromEntries(fields.map((field) => [field.id, errors[errorPath + field.id]]))
  return (
    <FieldsRenderer
      fields={fields}
      values={values as Readonly<Record<string, string | null>>}
      errors={own}
      idPrefix={idPrefix}
      onChange={(id, value) => onChange({ [id]: value ?? '' } as Partial<T>)}
    />
  )
}
