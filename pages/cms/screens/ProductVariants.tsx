import type { ProductVariantView } from '../../../src/site/types'
import { variantHref } from '../../../src/site/variant-query'

/**
 * The chooser of a product's variants (decision 043): a link per variant (`?v=<id>`), so it works
 * without JavaScript; the chosen one is marked `aria-current`, and the product's link unchooses it.
 */
export function ProductVariants({
  url,
  variants,
  chosen,
}: {
  url: string
  variants: ProductVariantView[]
  chosen: number | null
}) {
  return (
    <nav className="variants" aria-label="Варианты товара">
      <p className="variants__label">{chosen === null ? 'Выберите вариант' : 'Вариант'}</p>
      <ul className="variants__list">
        {variants.map((v) => (
          <li key={v.id}>
            <a
              className={`variants__link${v.id === chosen ? ' variants__link--chosen' : ''}`}
              href={variantHref(url, v.id)}
              aria-current={v.id === chosen ? 'true' : undefined}
            >
              {v.title}
              {v.availability === 'out_of_stock' && <span className="visually-hidden"> (нет в наличии)</span>}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  )
}
