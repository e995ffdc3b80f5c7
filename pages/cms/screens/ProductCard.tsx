import { Image } from '../../../src/components/Image'
import { CARD_ADD_ATTRIBUTE, CARD_ADD_FIELD } from '../../../src/lead/add-to-list'
import { REQUEST_LIST_TEXTS } from '../../../src/lead/request-list-view'
import { PATHS } from '../../../src/site/paths'
import type { ProductCard as Card } from '../../../src/site/types'
import { AvailabilityLabel, ProductPrice } from './ProductPrice'

// One column of .grid (4, 3 or 2 of them with 16px gaps) inside the container's 16px padding.
const CARD_SIZES =
  '(min-width: 1200px) 280px, (min-width: 1000px) calc((100vw - 80px) / 4), ' +
  '(min-width: 700px) calc((100vw - 64px) / 3), calc((100vw - 48px) / 2)'
/** At most 280 CSS px, 840 px at 3×: the 1280 and 1920 px variants are never chosen (decision 037). */
const CARD_WIDEST = 960

function ProductCard({ product, eager = false }: { product: Card; eager?: boolean }) {
  return (
    <article className="card">
      <a className="card__link" href={product.url}>
        {/* The title below names the link; an alt repeating it would be read twice. */}
        <Image src={product.image} alt="" width={400} eager={eager} sizes={CARD_SIZES} widest={CARD_WIDEST} />
        <h3 className="card__title">{product.title}</h3>
      </a>
      {product.article && <p className="card__article">{`Артикул: ${product.article}`}</p>}
      <AvailabilityLabel availability={product.availability} className="card__availability" />
      <ProductPrice
        price={product.price}
        oldPrice={product.oldPrice}
        className="card__price"
        from={product.variants === 'from'}
      />
      {/* «В заявку» as a plain form landing on the list; with JavaScript the header's island sends it in place.
          The button carries the product (`add=<id>`, sent by a click or Enter): no hidden inputs. */}
      <form className="card__add" method="post" action={PATHS.requestList} {...{ [CARD_ADD_ATTRIBUTE]: '' }}>
        <input
          className="card__qty"
          type="number"
          name="quantity"
          min={1}
          max={9999}
          defaultValue={1}
          aria-label={`${REQUEST_LIST_TEXTS.quantity}: ${product.title}`}
        />
        <button className="button" name={CARD_ADD_FIELD} value={product.id}>
          {REQUEST_LIST_TEXTS.add}
        </button>
      </form>
    </article>
  )
}

export function ProductGrid({ products, eagerFirst = false }: { products: Card[]; eagerFirst?: boolean }) {
  return (
    <div className="grid">
      {products.map((p, i) => (
        <ProductCard key={p.id} product={p} eager={eagerFirst && i < 2} />
      ))}
    </div>
  )
}
