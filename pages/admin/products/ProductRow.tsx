// One product of «Товары»: its photo, title (to its record), артикул, section, price and old price
// edited in place (Enter saves, Escape cancels, a Russian error stays in the cell and nothing is
// half-saved), availability chosen in place, visibility and when it changed. On a phone the row is a
// card: each cell says what it is (data-label).
import { useState, type KeyboardEvent } from 'react'
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
import { editableRubles, formatRubles, parseMoney, rublesNumber } from '../../../src/format/money'
import { ADMIN_PATHS } from '../../../src/site/paths'
import { mediaSrc } from '../../../src/site/url'
import { parseSizedUpload, variantPath } from '../../../src/site/image-variants'

/** The smallest variant of an upload (the list shows a thumbnail), else the file itself. */
function thumbnail(mediaUrl: string, image: string): string {
  const upload = parseSizedUpload(image)
  return mediaSrc(mediaUrl, upload ? variantPath(upload, 320, 'webp') : image)
}

function PriceCell({
  label,
  value,
  onSave,
}: {
  label: string
  value: number | null
  onSave: (value: number | null) => Promise<void>
}) {
  const [draft, setDraft] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  async function save() {
    if (draft === null) return
    const read = draft.trim() === '' ? null : parseMoney(draft)
    if (read && !read.ok) {
      setError(`Введите сумму в рублях (${read.reason}) или оставьте пустым`)
      return
    }
    setBusy(true)
    try {
      await onSave(read === null ? null : rublesNumber(read.kopecks))
      setDraft(null)
      setError(null)
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : 'Не удалось сохранить. Попробуйте ещё раз.')
    } finally {
      setBusy(false)
    }
  }

  function keys(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'Enter') {
      event.preventDefault()
      void save()
    }
    if (event.key === 'Escape') {
      setDraft(null)
      setError(null)
    }
  }

  if (draft === null) {
    return (
      <button
        type="button"
        className="products__edit"
        aria-label={`${label}: изменить`}
        onClick={() => setDraft(value === null ? '' : editableRubles(value))}
      >
        {value === null ? '—' : formatRubles(value)}
      </button>
    )
  }
  return (
    <span className="products__editing">
      <input
        className="field__control products__input"
        inputMode="decimal"
        aria-label={label}
        aria-invalid={error ? true : undefined}
        value={draft}
        disabled={busy}
        // eslint-disable-next-line jsx-a11y/no-autofocus -- the owner asked to edit this cell
        autoFocus
        onChange={(event) => setDraft(event.target.value)}
        onKeyDown={keys}
      />
      {error && (
        <small className="admin-error" role="alert">
          {error}
        </small>
      )}
    </span>
  )
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
  const save = (change: Parameters<ProductsApi['edit']>[1]) => api.edit(row.id, change).then(onChanged)

  async function changeAvailability(availability: ProductAvailability) {
    try {
      await save({ availability })
      setAvailabilityError(null)
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
      <td data-label="Артикул">{row.article ?? '—'}</td>
      <td data-label="Раздел">{row.sectionTitle ?? '—'}</td>
      <td data-label="Цена">
        <PriceCell label={`Цена «${row.title}»`} value={row.price} onSave={(price) => save({ price })} />
      </td>
      <td data-label="Старая цена">
        <PriceCell
          label={`Старая цена «${row.title}»`}
          value={row.oldPrice}
          onSave={(oldPrice) => save({ oldPrice })}
        />
      </td>
      <td data-label="Наличие">
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
      </td>
      <td data-label="Видимость">{STATE_LABELS[row.state]}</td>
      <td data-label="Изменён">
        <time dateTime={row.updatedAt}>{formatDateTimeIn(row.updatedAt, timeZone)}</time>
      </td>
    </tr>
  )
}
