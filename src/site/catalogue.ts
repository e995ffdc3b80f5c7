// What a product's catalogue fields mean to a buyer and to a crawler (decision 025).
import type { Availability } from './types'

/** The label a buyer reads on the card and the page. */
export const AVAILABILITY_LABELS: Readonly<Record<Availability, string>> = Object.freeze({
  in_stock: 'В наличии',
  on_order: 'Под заказ',
  out_of_stock: 'Нет в наличии',
})

/** schema.org's ItemAvailability of each (a made-to-order item is a back order to a crawler too). */
export const SCHEMA_AVAILABILITY: Readonly<Record<Availability, string>> = Object.freeze({
  in_stock: 'https://schema.org/InStock',
  on_order: 'https://schema.org/BackOrder',
  out_of_stock: 'https://schema.org/OutOfStock',
})

/**
 * The discount in whole percent when the old price is above the price, else null (then no old price
 * is shown at all).
 * @example discountPercent(7990, 9990) // 20
 */
export function discountPercent(price: number | null, oldPrice: number | null): number | null {
  if (price === null || oldPrice === null || oldPrice <= price) return null
  return Math.max(1, Math.round((1 - price / oldPrice) * 100))
}
