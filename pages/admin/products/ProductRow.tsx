// One product of «Товары»: its photo, title (to its record), артикул, section, price and old price
// edited in place (PriceCell.tsx), availability chosen in place, visibility and when it changed. On
// a phone the row is a card: each cell says what it is (data-label). The артикул, the prices, the
// availability and the visibility never break inside a word (products.css).
import { useState } from 'react'
import { usePageContext } from 'vike-react/usePageContext'
import { ApiError } from '../../../src/api/http-client'
import {
  AVAILABILITY_LABELS,
  STATE_LABELS,
  type ProductAvailability,
  type ProductRow as Row,
  type ProductsApi,
} from '../../../src/admin/admin-products'
import { formatDateTimeIn } from '../../../src/format/format-date'
import { ADMIN_PATHS } from '../../../src/site/paths'
import { mediaSrc } from '../../../src/site/url'
import { parseSizedUpload, variantPath } from '../../../src/site/image-variants'
import { PriceCell, SavedNote, useSavedFlash } from './PriceCell'

/** The smallest variant of an upload (the list shows a thumbnail), else the file itself. */
function thumbnail(mediaUrl: string, image: string): string {
  const upload = parseSizedUpload(image)
  return mediaSrc(mediaUrl, upload ? variantPath(upload, 320, 'webp') : image)
}

export function ProductRowView({
  row,
  api,
  selected,
  onSelect,
  onChanged,
  timeZone,
}: {
  row: Row
  api: ProductsApi
  selected: boolean
  onSelect: (checked: boolean) => void
  onChanged: () => void
  timeZone: string
}) {
  const { publicSettings } = usePageContext()
  const [availabilityError, setAvailabilityError] = useState<string | null>(null)
  const [availabilitySaved, flashAvailability] = useSavedFlash()
  const save = (change: Parameters<ProductsApi['edit']>[1]) => api.edit(row.id, change).then(onChanged)

  async function changeAvailability(availability: ProductAvailability) {
    try {
      await save({ availability })
      setAvailabilityError(null)
      flashAvailability()
    } catch (failure) {
      setAvailabilityError(failure instanceof ApiError ? failure.message : 'Не удалось сохранить')
    }
  }

  return (
    <tr className={`products__row products__row--${row.state}`}>
      <td className="products__pick">
        <input
          type="checkbox"
          aria-label={`Выбрать «${row.title}»`}
          checked={selected}
          onChange={(e) => onSelect(e.target.checked)}
        />
      </td>
      <td className="products__photo" data-label="Фото">
        {row.image ? (
          <img
            src={thumbnail(publicSettings?.mediaUrl ?? '', row.image)}
            alt=""
            width={48}
            height={48}
            loading="lazy"
          />
        ) : (
          <span className="products__nophoto">нет фото</span>
        )}
      </td>
      <td data-label="Название">
        <a href={ADMIN_PATHS.record(row.id)}>{row.title}</a>
      </td>
      <td data-label="Артикул" className="products__nowrap">
        {row.article ?? '—'}
      </td>
      <td data-label="Раздел">{row.sectionTitle ?? '—'}</td>
      <td data-label="Цена" className="products__nowrap">
        <PriceCell label={`Цена «${row.title}»`} value={row.price} onSave={(price) => save({ price })} />
      </td>
      <td data-label="Старая цена" className="products__nowrap">
        <PriceCell
          label={`Старая цена «${row.title}»`}
          value={row.oldPrice}
          onSave={(oldPrice) => save({ oldPrice })}
        />
      </td>
      <td data-label="Наличие" className="products__nowrap">
        <select
          className="field__control products__select"
          aria-label={`Наличие «${row.title}»`}
          value={row.availability}
          onChange={(event) => void changeAvailability(event.target.value as ProductAvailability)}
        >
          {Object.entries(AVAILABILITY_LABELS).map(([value, text]) => (
            <option key={value} value={value}>
              {text}
            </option>
          ))}
        </select>
        {availabilityError && <small className="admin-error">{availabilityError}</small>}
        <SavedNote saved={availabilitySaved} />
      </td>
      <td data-label="Видимость" className="products__nowrap">
        {STATE_LABELS[row.state]}
      </td>
      <td data-label="Изменён" className="products__nowrap">
        <time dateTime={row.updatedAt}>{formatDateTimeIn(row.updatedAt, timeZone)}</time>
      </td>
    </tr>
  )
}
