import { Image } from '../../../src/components/Image'
import { Gallery } from '../../../src/components/Gallery'
import { Island } from '../../../src/islands/Island'
import { LeadButton } from '../../../src/lead/LeadButton'
import { AddToList } from '../../../src/lead/AddToList'
import type { ProductPage } from '../../../src/site/types'
import { Breadcrumbs } from './Breadcrumbs'
import { Paragraphs } from './Paragraphs'
import { AvailabilityLabel, ProductPrice } from './ProductPrice'
import { ProductProperties } from './ProductProperties'
import { ProductVariants } from './ProductVariants'
import './screens.css'

// Half of the container (two columns, 24px apart) from 900px, all of it below.
const PRODUCT_SIZES = '(min-width: 1200px) 572px, (min-width: 900px) calc((100vw - 56px) / 2), calc(100vw - 32px)'

export function ProductScreen({ page }: { page: ProductPage }) {
  // No variant chosen among differing prices: the lowest, «от» (decision 043).
  const from = page.variantId === null && new Set(page.variants.map((v) => v.price)).size > 1
  const chosen = page.variants.find((v) => v.id === page.variantId)
  return (
    <div className="container">
      <Breadcrumbs items={page.breadcrumbs} />
      <article className="product">
        <div className="product__media">
          {page.images.length > 1 ? (
            <Island
              name="gallery"
              component={Gallery}
              props={{ images: page.images, title: page.title, sizes: PRODUCT_SIZES }}
            />
          ) : (
            <Image src={page.image} alt={page.images[0]?.alt || page.title} width={600} eager sizes={PRODUCT_SIZES} />
          )}
        </div>
        <div className="product__info">
          <h1>{page.title}</h1>
          {page.vendor && <p className="product__vendor">Бренд: {page.vendor}</p>}
          {page.article && <p className="product__article">Артикул: {page.article}</p>}
          <AvailabilityLabel availability={page.availability} className="product__availability" />
          <ProductPrice price={page.price} oldPrice={page.oldPrice} className="product__price" from={from} />
          {page.variants.length > 0 && (
            <ProductVariants url={page.url} variants={page.variants} chosen={page.variantId} />
          )}
          <Island
            name="add-to-list"
            component={AddToList}
            props={{
              productId: page.id,
              title: chosen ? `${page.title}, ${chosen.title}` : page.title,
              ...(chosen ? { variantId: chosen.id } : {}),
            }}
          />
          <Island name="lead-button" component={LeadButton} props={{ product: { id: page.id, title: page.title } }} />
          <Paragraphs text={page.description} className="prose product__description" />
        </div>
      </article>
      <ProductProperties properties={page.properties} />
    </div>
  )
}
