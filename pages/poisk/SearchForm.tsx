import { PATHS } from '../../src/site/paths'

/** The search form of the results page: a plain GET form, labelled, that works without JavaScript. */
export function SearchForm({ query }: { query: string }) {
  return (
    <form className="search-form" role="search" action={PATHS.search} method="get">
      <label htmlFor="search-page-q">Поиск по каталогу</label>
      <div className="search-form__row">
        <input
          id="search-page-q"
          className="search-box__input"
          type="search"
          name="q"
          defaultValue={query}
          maxLength={200}
          autoComplete="off"
        />
        <button className="button button--accent" type="submit">
          Найти
        </button>
      </div>
    </form>
  )
}
