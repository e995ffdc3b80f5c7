import { Image } from '../../../src/components/Image'
import { Island } from '../../../src/islands/Island'
import { LeadButton } from '../../../src/lead/LeadButton'
import { formatPrice } from '../../../src/format/format-price'
import type { ProductPage } from '../../../src/site/types'
import { Breadcrumbs } from './Breadcrumbs'
import { Paragraphs } from './Paragraphs'
import './screens.css'

// Half of the container (two columns, 24px apart) from 900px, all of it below.
const PRODUCT_SIZES = '(min-width: 1200px) 572px, (min-width: 900px) calc((100vw - 56px) / 2), calc(100vw - 32px)'

export function ProductScreen({ page }: { page: ProductPage }) {
  return (
    <div className="container">
      <Breadcrumbs items={page.breadcrumbs} />
      <article className="product">
        <div className="product__media">
          <Image src={page.image} alt={page.title} width={600} eager sizes={PRODUCT_SIZES} />
        </div>
        <div className="product__info">
          <h1>{page.title}</h1>
          {page.article && <p className="product__article">Артикул: {page.article}</p>}
          {page.price !== null && <p className="product__price">{formatPrice(page.price)}</p>}
          <Island name="lead-button" component={LeadButton} props={{ className: 'product__lead' }} />
          <Paragraphs text={page.description} className="prose product__description" />
        </div>
      </article>
    </div>
  )
}
