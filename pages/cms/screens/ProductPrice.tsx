import { formatMoney } from '../../../src/format/money'
import { AVAILABILITY_LABELS, discountPercent } from '../../../src/site/catalogue'
import type { Availability } from '../../../src/site/types'

/** The price, the old one struck through with its «−N %», or «Цена по запросу» when there is none. */
export function ProductPrice({
  price,
  oldPrice,
  className,
  from = false,
}: {
  price: number | null
  oldPrice: number | null
  className: string
  /** The lowest of variants' differing prices: «от 1 299 ₽» (decision 043) */
  from?: boolean
}) {
  if (price === null) return <p className={`${className} price price--request`}>Цена по запросу</p>
  if (from) return <p className={`${className} price`}>{`от ${formatMoney(price)}`}</p>
  const discount = discountPercent(price, oldPrice)
  if (discount === null || oldPrice === null) return <p className={`${className} price`}>{formatMoney(price)}</p>
  return (
    <p className={`${className} price`}>
      {/* One text node with its space: React separates two adjacent ones with a comment. */}
      {`${formatMoney(price)} `}
      <del className="price__old">
        <span className="visually-hidden">Старая цена: </span>
        {formatMoney(oldPrice)}
      </del>{' '}
      <span className="price__discount">{`−${discount}\u00a0%`}</span>
    </p>
  )
}

/** «В наличии», «Под заказ» or «Нет в наличии». */
export function AvailabilityLabel({ availability, className }: { availability: Availability; className: string }) {
  return (
    <p className={`${className} availability availability--${availability}`}>{AVAILABILITY_LABELS[availability]}</p>
  )
}
