import type { HomePage } from '../../../src/site/types'
import { Advantages } from './Advantages'
import { ProductGrid } from './ProductCard'
import { Slider } from './Slider'
import './screens.css'

export function HomeScreen({ page }: { page: HomePage }) {
  return (
    <div className="container home">
      <h1 className="visually-hidden">{page.title}</h1>
      <Slider slides={page.slides} />
      <Advantages items={page.advantages} />
      {page.featured.length > 0 && (
        <section className="catalogue-section" aria-labelledby="featured-products">
          <div className="catalogue-section__head">
            <h2 id="featured-products">Популярные товары</h2>
          </div>
          <ProductGrid products={page.featured} />
        </section>
      )}
      {page.sections.map((section) => (
        <section className="catalogue-section" key={section.id} aria-labelledby={`section-${section.id}`}>
          <div className="catalogue-section__head">
            <h2 id={`section-${section.id}`}>
              <a href={section.url}>{section.title}</a>
            </h2>
            <a className="catalogue-section__all" href={section.url}>
              Все товары ({section.productCount})
            </a>
          </div>
          <ProductGrid products={section.products} />
        </section>
      ))}
    </div>
  )
}
