import { PATHS } from '../../src/site/paths'

/** The header's search: a labelled GET form to /poisk, the same with or without JavaScript. */
export function SearchBox() {
  return (
    <form className="header__search search-box" role="search" action={PATHS.search} method="get">
      <label className="visually-hidden" htmlFor="header-search-q">
        Поиск по каталогу
      </label>
      <input
        id="header-search-q"
        className="search-box__input"
        type="search"
        name="q"
        maxLength={200}
        placeholder="Название или артикул"
        autoComplete="off"
      />
      <button className="search-box__button" type="submit">
        Найти
      </button>
    </form>
  )
}
