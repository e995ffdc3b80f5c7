import { Image } from '../../../src/components/Image'
import { CARD_ADD_FIELD } from '../../../src/lead/add-to-list'
import { REQUEST_LIST_TEXTS } from '../../../src/lead/request-list-view'
import { PATHS } from '../../../src/site/paths'
import type { ProductCard as Card } from '../../../src/site/types'
import { AvailabilityLabel, ProductPrice } from './ProductPrice'

/**
 * A card's picture: its 640 px variant alone, the one phones and desktops choose
 * (docs/decisions/045-one-call-and-light-cards.md). A card is drawn 156–183 CSS px wide on phones
 * (312 device pixels and more at 2×) and at most 280 on desktops, where a 4:3 or 3:2 photo cropped
 * to the square shows 240 or 213 px of its 320 px variant: Chromium takes the 640 px one there even
 * at 1×. Only 2× tablets and 3× phones once took the 960 px one; 640 still gives them about 1.5
 * device pixels per CSS pixel. One URL per format, and no `sizes`, in every card.
 */
export function CardImage({ src, eager }: { src: string | null; eager: boolean }) {
  return <Image src={src} alt="" width={400} eager={eager} narrowest={640} widest={640} />
}

function ProductCard({ product, eager = false }: { product: Card; eager?: boolean }) {
  return (
    <article className="card">
      <a className="card__link" href={product.url}>
        {/* The title below names the link; an alt repeating it would be read twice. */}
        <CardImage src={product.image} eager={eager} />
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
          The button carries the product (`add=<id>`): no hidden inputs. It adds one, as a
          marketplace's card does; the quantity is set on the product page or in the list. */}
      <form className="card__add" method="post" action={PATHS.requestList}>
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
