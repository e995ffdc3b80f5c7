// The editor's «Наличие» select, for a product and for each of its variants.
import { FieldShell } from '../../../../src/components/form/FieldShell'
import { AVAILABILITY_OPTIONS, type Availability } from './record-draft'

export function AvailabilityField(props: {
  id: string
  value: Availability
  error?: string
  onChange: (availability: Availability) => void
}) {
  return (
    <FieldShell id={props.id} label="Наличие" error={props.error}>
      <select
        id={props.id}
        className="field__control"
        value={props.value}
        onChange={(event) => props.onChange(event.target.value as Availability)}
      >
        {AVAILABILITY_OPTIONS.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </FieldShell>
  )
}
