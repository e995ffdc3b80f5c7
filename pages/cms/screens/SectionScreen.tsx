import { Image } from '../../../src/components/Image'
import { isFilteredOrSorted } from '../../../src/site/section-query'
import type { SectionPage } from '../../../src/site/types'
import { Breadcrumbs } from './Breadcrumbs'
import { Paragraphs } from './Paragraphs'
import { ProductGrid } from './ProductCard'
import { ListingControls, Pagination } from './SectionListing'
import './screens.css'

// At most 420px wide (.subsections > li), never wider than the container's content.
const SUBSECTION_SIZES = '(min-width: 452px) 420px, calc(100vw - 32px)'

export function SectionScreen({ page }: { page: SectionPage }) {
  return (
    <div className="container">
      <Breadcrumbs items={page.breadcrumbs} />
      <h1>{page.title}</h1>
      <Paragraphs text={page.content} className="prose section__intro" />
      {page.sections.length > 0 && (
        <ul className="subsections">
          {page.sections.map((s, i) => (
            <li key={s.id}>
              <a className="subsections__link" href={s.url}>
                <Image src={s.image} alt="" width={300} eager={i < 2} sizes={SUBSECTION_SIZES} />
                <span className="subsections__title">{s.title}</span>
                <span className="subsections__count">Товаров: {s.productCount}</span>
              </a>
            </li>
          ))}
        </ul>
      )}
      {/* Order and filters where there is something to order: products on any page, or a filter that found none. */}
      {(page.listing.total > 0 || isFilteredOrSorted(page.listing.query)) && (
        <ListingControls url={page.url} listing={page.listing} />
      )}
      {page.products.length > 0 && <ProductGrid products={page.products} eagerFirst={page.sections.length === 0} />}
      <Pagination url={page.url} listing={page.listing} />
      {page.products.length === 0 && isFilteredOrSorted(page.listing.query) && (
        <p>
          Ничего не найдено. Измените условия отбора или <a href={page.url}>покажите все товары</a>.
        </p>
      )}
      {page.sections.length === 0 && page.listing.total === 0 && !isFilteredOrSorted(page.listing.query) && (
        <p>В этом разделе пока нет товаров.</p>
      )}
    </div>
  )
}
