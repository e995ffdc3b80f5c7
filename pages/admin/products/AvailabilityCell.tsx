// The availability of «Товары» chosen in place, for a product or a variant: saved at once, or after
// the owner's yes when 1C overwrites it (`warning`, decision 044); a Russian error stays in the cell.
import { useState } from 'react'
import { ApiError } from '../../../src/api/http-client'
import { AVAILABILITY_LABELS, type ProductAvailability } from '../../../src/admin/admin-products'
import { Confirm } from '../layout/Confirm'
import { SavedNote, useSavedFlash } from './PriceCell'

export function AvailabilityCell({
  label,
  value,
  warning,
  onSave,
}: {
  label: string
  value: ProductAvailability
  warning: string | null
  onSave: (availability: ProductAvailability) => Promise<void>
}) {
  const [error, setError] = useState<string | null>(null)
  const [saved, flash] = useSavedFlash()
  /** An availability waiting for the owner's yes: 1C overwrites it */
  const [asked, setAsked] = useState<ProductAvailability | null>(null)

  async function change(availability: ProductAvailability) {
    setAsked(null)
    try {
      await onSave(availability)
      setError(null)
      flash()
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : 'Не удалось сохранить')
    }
  }

  return (
    <>
      <select
        className="field__control products__select"
        aria-label={label}
        value={asked ?? value}
        onChange={(event) => {
          const availability = event.target.value as ProductAvailability
          if (warning) setAsked(availability)
          else void change(availability)
        }}
      >
        {Object.entries(AVAILABILITY_LABELS).map(([key, text]) => (
          <option key={key} value={key}>
            {text}
          </option>
        ))}
      </select>
      {asked && warning && (
        <Confirm
          className="products__confirm products__confirm--cell"
          question={warning}
          confirmLabel="Сохранить"
          busy={false}
          onConfirm={() => void change(asked)}
          onCancel={() => setAsked(null)}
        />
      )}
      {error && <small className="admin-error">{error}</small>}
      <SavedNote saved={saved} />
    </>
  )
}
