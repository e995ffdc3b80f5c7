import { PATHS } from '../../src/site/paths'

/**
 * The header's search: a labelled GET form to /poisk, the same with or without JavaScript. The
 * field is named by `aria-label`, which assistive technology reads as it would a hidden `<label>`,
 * without the label's element, `for` and `id` in every page (22 bytes gzip, decision 045).
 */
export function SearchBox() {
  return (
    <form className="header__search search-box" role="search" action={PATHS.search} method="get">
      <input
        className="search-box__input"
        aria-label="Поиск по каталогу"
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
