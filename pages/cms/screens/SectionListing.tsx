// A section's order, filters and pages: plain links and a GET form, so all of it works without
// JavaScript and a crawler can follow every page (docs/decisions/031-sections-and-scale.md).
import {
  AVAILABILITIES,
  AVAILABILITY_LABELS,
  isFilteredOrSorted,
  MAX_FILTER_PRICE,
  SECTION_SORTS,
  sectionHref,
  SORT_LABELS,
} from '../../../src/site/section-query'
import type { SectionListing } from '../../../src/site/types'
import { FacetFields } from './FacetFields'
import './listing.css'

export function ListingControls({ url, listing }: { url: string; listing: SectionListing }) {
  const { query } = listing
  return (
    <div className="listing-controls">
      <nav className="listing-sort" aria-label="Сортировка">
        <span className="listing-sort__label">Сортировка:</span>
        <ul>
          {([null, ...SECTION_SORTS] as const).map((sort) => (
            <li key={sort ?? 'default'}>
              {query.sort === sort ? (
                <span aria-current="true">{SORT_LABELS[sort ?? 'default']}</span>
              ) : (
                <a href={sectionHref(url, query, { sort })}>{SORT_LABELS[sort ?? 'default']}</a>
              )}
            </li>
          ))}
        </ul>
      </nav>
      <form className="listing-filter" method="get" action={url} aria-label="Отбор товаров">
        {query.sort && <input type="hidden" name="sort" value={query.sort} />}
        <label>
          <span>Наличие</span>
          <select name="avail" defaultValue={query.avail ?? ''}>
            <option value="">Любое</option>
            {AVAILABILITIES.map((a) => (
              <option key={a} value={a}>
                {AVAILABILITY_LABELS[a]}
              </option>
            ))}
          </select>
        </label>
        <label>
          <span>Цена от, ₽</span>
          <input {...PRICE_INPUT} name="min" defaultValue={query.min ?? ''} />
        </label>
        <label>
          <span>до, ₽</span>
          <input {...PRICE_INPUT} name="max" defaultValue={query.max ?? ''} />
        </label>
        <FacetFields facets={listing.facets} query={query} />
        <button type="submit" className="button">
          Показать
        </button>
        {isFilteredOrSorted(query) && (
          <a className="listing-filter__reset" href={url}>
            Сбросить
          </a>
        )}
      </form>
      <p className="listing-total" role="status">
        Найдено товаров: {listing.total}
      </p>
    </div>
  )
}

const PRICE_INPUT = { type: 'number', min: 0, max: MAX_FILTER_PRICE, step: 1, inputMode: 'numeric' } as const

/** The page numbers shown: the first, the last, and two either side of the current one. */
function pageNumbers(current: number, count: number): (number | 'gap')[] {
  const out: (number | 'gap')[] = []
  for (let n = 1; n <= count; n++) {
    if (n === 1 || n === count || Math.abs(n - current) <= 2) out.push(n)
    else if (out.at(-1) !== 'gap') out.push('gap')
  }
  return out
}

export function Pagination({ url, listing }: { url: string; listing: SectionListing }) {
  const { query, pageCount } = listing
  if (pageCount <= 1) return null
  const href = (page: number) => sectionHref(url, query, { page })
  return (
    <nav className="pagination" aria-label="Страницы">
      {query.page > 1 ? (
        <a className="pagination__step" href={href(query.page - 1)} rel="prev">
          ← Назад
        </a>
      ) : (
        <span className="pagination__step" aria-hidden="true">
          ← Назад
        </span>
      )}
      <ul>
        {pageNumbers(query.page, pageCount).map((n, i) => (
          <li key={n === 'gap' ? `gap-${i}` : n}>
            {n === 'gap' ? (
              <span aria-hidden="true">…</span>
            ) : n === query.page ? (
              <span aria-current="page" aria-label={`Страница ${n}`}>
                {n}
              </span>
            ) : (
              <a href={href(n)} aria-label={`Страница ${n}`}>
                {n}
              </a>
            )}
          </li>
        ))}
      </ul>
      {query.page < pageCount ? (
        <a className="pagination__step" href={href(query.page + 1)} rel="next">
          Вперёд →
        </a>
      ) : (
        <span className="pagination__step" aria-hidden="true">
          Вперёд →
        </span>
      )}
    </nav>
  )
}
