// A product's variants in «Товары» (docs/decisions/043-variants.md): rows under their product,
// indented, each with its title, артикул, price, old price and availability; the prices and the
// availability are edited in place as a product's are, and the product's own follow. A variant 1C
// sent has its price and stock written by 1C at each exchange while the owner's switches let it
// (its `oneC`): an edit of such a field asks first (decision 044).
import type { InlineEdit, ProductsApi, VariantRow } from '../../../src/admin/admin-products'
import { formatRubles } from '../../../src/format/money'
import { overwriteWarning } from '../../../src/catalogue/one-c-fields'
import { pluralRu } from '../../../src/validation/plural-ru'
import { AvailabilityCell } from './AvailabilityCell'
import { PriceCell } from './PriceCell'

/** «3 варианта» */
export const variantCount = (count: number) =>
  `${count} ${pluralRu(count, { one: 'вариант', few: 'варианта', many: 'вариантов', other: 'варианта' })}`

/**
 * A product's price set by its variants, shown and not edited: «от 1 290 ₽» when theirs differ (its
 * availability likewise), on one line as every price is; why it is no field is said under the
 * product's title (FOLLOWED_NOTE) and on hover.
 */
export function FollowedCell({ text, why }: { text: string; why: string }) {
  return (
    <span className="products__editing" title={why}>
      {text}
    </span>
  )
}

/** Under the title of a product with variants: why its price and availability are no fields. */
export const FOLLOWED_NOTE = 'Цена и наличие задаются у вариантов'

/** The product's price as its variants make it: «от» the lowest when they differ. */
export function followedPrice(price: number | null, variants: readonly VariantRow[]): string {
  if (price === null) return '—'
  const prices = new Set(variants.map((v) => v.price).filter((p) => p !== null))
  return `${prices.size > 1 ? 'от ' : ''}${formatRubles(price)}`
}

export function VariantRows({
  productId,
  productTitle,
  variants,
  api,
  id,
  onChanged,
}: {
  productId: number
  productTitle: string
  variants: readonly VariantRow[]
  api: ProductsApi
  /** Each row's element id, which the product's «N вариантов» button controls */
  id: (variantId: number) => string
  onChanged: () => void
}) {
  return (
    <>
      {variants.map((variant) => {
        const name = `«${productTitle}», ${variant.title}`
        const save = (change: InlineEdit) => api.editVariant(productId, variant.id, change).then(onChanged)
        const priceWarning = overwriteWarning(['price'], variant.oneC, 'этого варианта')
        return (
          <tr key={variant.id} id={id(variant.id)} className="products__row products__variant">
            <td className="products__pick products__blank" />
            <td className="products__blank" />
            <td data-label="Вариант">
              <span className="products__variant-title">{variant.title}</span>
            </td>
            <td data-label="Артикул" className="products__nowrap">
              {variant.article ?? '—'}
            </td>
            <td className="products__blank" />
            <td data-label="Цена" className="products__nowrap">
              <PriceCell
                label={`Цена ${name}`}
                value={variant.price}
                warning={priceWarning}
                onSave={(price) => save({ price })}
              />
            </td>
            <td data-label="Старая цена" className="products__nowrap">
              <PriceCell
                label={`Старая цена ${name}`}
                value={variant.oldPrice}
                warning={priceWarning}
                onSave={(oldPrice) => save({ oldPrice })}
              />
            </td>
            <td data-label="Наличие" className="products__nowrap">
              <AvailabilityCell
                label={`Наличие ${name}`}
                value={variant.availability}
                warning={overwriteWarning(['stock'], variant.oneC, 'этого варианта')}
                onSave={(availability) => save({ availability })}
              />
            </td>
            <td className="products__blank" />
            <td className="products__blank" />
          </tr>
        )
      })}
    </>
  )
}
