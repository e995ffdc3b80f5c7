// One product of «Товары»: its photo, title (to its record), артикул, section, price and old price
// edited in place (PriceCell.tsx), availability chosen in place, visibility and when it changed. On
// a phone the row is a card: each cell says what it is (data-label). The артикул, the prices, the
// availability and the visibility never break inside a word (products.css). A product from 1C is
// marked «Из 1С» with the fields the exchange overwrites; an edit of one of them asks first
// (docs/decisions/044-onec-owned-fields.md). A product with variants shows «N вариантов», which
// opens its variants' rows under it (VariantRows.tsx); its price and availability are theirs, shown
// and not edited (decision 043).
import { useId, useState } from 'react'
import { usePageContext } from 'vike-react/usePageContext'
import {
  AVAILABILITY_LABELS,
  STATE_LABELS,
  type ProductRow as Row,
  type ProductsApi,
} from '../../../src/admin/admin-products'
import { formatDateTimeIn } from '../../../src/format/format-date'
import { formatRubles } from '../../../src/format/money'
import { ADMIN_PATHS } from '../../../src/site/paths'
import { mediaSrc } from '../../../src/site/url'
import { parseSizedUpload, variantPath } from '../../../src/site/image-variants'
import { PriceCell } from './PriceCell'
import { overwriteWarning, overwrittenText } from '../../../src/catalogue/one-c-fields'
import { AvailabilityCell } from './AvailabilityCell'
import { FOLLOWED_NOTE, FollowedCell, followedPrice, VariantRows, variantCount } from './VariantRows'

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
  const rowsId = useId()
  const [open, setOpen] = useState(false)
  const priceWarning = overwriteWarning(['price'], row.oneC)
  const save = (change: Parameters<ProductsApi['edit']>[1]) => api.edit(row.id, change).then(onChanged)
  const variants = row.variants.length > 0
  const variantId = (id: number) => `${rowsId}-v${id}`

  return (
    <>
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
          {/* One box: on a phone the cell is a grid of its label and its content */}
          <span>
            <a href={ADMIN_PATHS.record(row.id)}>{row.title}</a>
            {row.oneC && (
              <span className="admin-badge products__one-c" title={overwrittenText(row.oneC)}>
                Из 1С<span className="visually-hidden">. {overwrittenText(row.oneC)}</span>
              </span>
            )}
            {variants && (
              <button
                type="button"
                className="products__variants"
                aria-expanded={open}
                aria-controls={open ? row.variants.map((v) => variantId(v.id)).join(' ') : undefined}
                onClick={() => setOpen(!open)}
              >
                {variantCount(row.variants.length)}
                <span aria-hidden="true">{open ? ' ▴' : ' ▾'}</span>
              </button>
            )}
            {variants && <small className="products__followed">{FOLLOWED_NOTE}</small>}
          </span>
        </td>
        <td data-label="Артикул" className="products__nowrap">
          {row.article ?? '—'}
        </td>
        <td data-label="Раздел">{row.sectionTitle ?? '—'}</td>
        <td data-label="Цена" className="products__nowrap">
          {variants ? (
            <FollowedCell text={followedPrice(row.price, row.variants)} why="Цена задаётся у вариантов" />
          ) : (
            <PriceCell
              label={`Цена «${row.title}»`}
              value={row.price}
              warning={priceWarning}
              onSave={(price) => save({ price })}
            />
          )}
        </td>
        <td data-label="Старая цена" className="products__nowrap">
          {variants ? (
            <FollowedCell text={row.oldPrice === null ? '—' : formatRubles(row.oldPrice)} why="Задаётся у вариантов" />
          ) : (
            <PriceCell
              label={`Старая цена «${row.title}»`}
              value={row.oldPrice}
              warning={priceWarning}
              onSave={(oldPrice) => save({ oldPrice })}
            />
          )}
        </td>
        <td data-label="Наличие" className="products__nowrap">
          {variants ? (
            <FollowedCell text={AVAILABILITY_LABELS[row.availability]} why="Наличие задаётся у вариантов" />
          ) : (
            <AvailabilityCell
              label={`Наличие «${row.title}»`}
              value={row.availability}
              warning={overwriteWarning(['stock'], row.oneC)}
              onSave={(availability) => save({ availability })}
            />
          )}
        </td>
        <td data-label="Видимость" className="products__nowrap">
          {STATE_LABELS[row.state]}
        </td>
        <td data-label="Изменён" className="products__nowrap">
          <time dateTime={row.updatedAt}>{formatDateTimeIn(row.updatedAt, timeZone)}</time>
        </td>
      </tr>
      {variants && open && (
        <VariantRows
          productId={row.id}
          productTitle={row.title}
          variants={row.variants}
          api={api}
          id={variantId}
          onChanged={onChanged}
        />
      )}
    </>
  )
}
