import { PATHS } from '../../src/site/paths'
import type { SearchAnswer, SearchCard } from '../../src/site/search-types'
import { CardImage } from '../cms/screens/ProductCard'
import { AvailabilityLabel, ProductPrice } from '../cms/screens/ProductPrice'

export function searchUrl(query: string, page = 1): string {
  const params = new URLSearchParams({ q: query })
  if (page > 1) params.set('page', String(page))
  return `${PATHS.search}?${params}`
}

/** A product card as the section's, its title with the matched words marked. */
function ResultCard({ product, eager }: { product: SearchCard; eager: boolean }) {
  return (
    <article className="card">
      <a className="card__link" href={product.url}>
        <CardImage src={product.image} eager={eager} />
        <h2 className="card__title">
          {product.titleParts.map((part, i) => (part.mark ? <mark key={i}>{part.text}</mark> : part.text))}
        </h2>
      </a>
      {product.article && <p className="card__article">Артикул: {product.article}</p>}
      <AvailabilityLabel availability={product.availability} className="card__availability" />
      <ProductPrice price={product.price} oldPrice={product.oldPrice} className="card__price" />
    </article>
  )
}

export function SearchResults({ answer }: { answer: SearchAnswer }) {
  const { query, products, suggestion, page } = answer
  if (products.length === 0) {
    return (
      <p className="search-page__status" role="status">
        {page > 1 ? `На странице ${page} ничего нет по запросу «${query}».` : `Ничего не найдено по запросу «${query}»`}
      </p>
    )
  }
  return (
    <>
      {suggestion !== null ? (
        <p className="search-page__status" role="status">
          Ничего не найдено по запросу «{query}». Возможно, вы искали <a href={searchUrl(suggestion)}>«{suggestion}»</a>{' '}
          — показаны результаты по нему.
        </p>
      ) : (
        <p className="search-page__status visually-hidden" role="status">
          Результаты поиска по запросу «{query}»{page > 1 ? `, страница ${page}` : ''}
        </p>
      )}
      {answer.cut && <p className="search-page__note">Учтены только первые 8 слов запроса.</p>}
      <div className="grid">
        {products.map((p, i) => (
          <ResultCard key={p.id} product={p} eager={i < 2} />
        ))}
      </div>
      {(page > 1 || answer.hasNext) && (
        <nav className="search-page__pager" aria-label="Страницы результатов">
          {page > 1 && (
            <a href={searchUrl(suggestion ?? query, page - 1)} rel="prev">
              ← Предыдущие
            </a>
          )}
          <span>Страница {page}</span>
          {answer.hasNext && (
            <a href={searchUrl(suggestion ?? query, page + 1)} rel="next">
              Следующие →
            </a>
          )}
        </nav>
      )}
    </>
  )
}
