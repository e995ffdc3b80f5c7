import { Image } from '../../../src/components/Image'
import type { SectionPage } from '../../../src/site/types'
import { Breadcrumbs } from './Breadcrumbs'
import { Paragraphs } from './Paragraphs'
import { ProductGrid } from './ProductCard'
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
      {page.products.length > 0 && <ProductGrid products={page.products} eagerFirst={page.sections.length === 0} />}
      {page.sections.length === 0 && page.products.length === 0 && <p>В этом разделе пока нет товаров.</p>}
    </div>
  )
}
