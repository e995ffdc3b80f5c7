// «Товары»'s filters: the search, the section (with its subsections), availability, visibility,
// the sort (for a phone, where the table's headers are not shown) and «без фото», «без цены», «без
// описания». Each change goes into the URL (ProductsScreen.tsx).
import type { FormEvent } from 'react'
import { AVAILABILITY_LABELS, STATE_LABELS, type SectionOption } from '../../../src/admin/admin-products'

export function ProductFilters({
  filter,
  sections,
  search,
  onSearch,
  onSubmit,
  set,
  change,
  columns,
}: {
  filter: URLSearchParams
  sections: readonly SectionOption[]
  search: string
  onSearch: (value: string) => void
  onSubmit: (event: FormEvent) => void
  set: (key: string, value: string | null) => void
  change: (update: (next: URLSearchParams) => void) => void
  columns: readonly (readonly [string, string | null])[]
}) {
  const sortKey = filter.get('sort') ?? 'title'
  const desc = filter.get('dir') === 'desc'
  return (
    <form className="admin-panel products__filters" onSubmit={onSubmit} aria-label="Фильтры товаров">
      <label className="products__field products__search">
        <span>Поиск</span>
        <input className="field__control" type="search" value={search} onChange={(e) => onSearch(e.target.value)} />
      </label>
      <label className="products__field">
        <span>Раздел</span>
        <select
          aria-label="Раздел"
          className="field__control"
          value={filter.get('section') ?? ''}
          onChange={(e) => set('section', e.target.value || null)}
        >
          <option value="">Все разделы</option>
          {sections.map((s) => (
            <option key={s.id} value={s.id}>
              {s.title} ({s.urlFull})
            </option>
          ))}
        </select>
      </label>
      <label className="products__field">
        <span>Наличие</span>
        <select
          aria-label="Наличие"
          className="field__control"
          value={filter.get('avail') ?? ''}
          onChange={(e) => set('avail', e.target.value || null)}
        >
          <option value="">Любое</option>
          {Object.entries(AVAILABILITY_LABELS).map(([value, text]) => (
            <option key={value} value={value}>
              {text}
            </option>
          ))}
        </select>
      </label>
      <label className="products__field">
        <span>Видимость</span>
        <select
          aria-label="Видимость"
          className="field__control"
          value={filter.get('state') ?? ''}
          onChange={(e) => set('state', e.target.value || null)}
        >
          <option value="">Любая</option>
          {Object.entries(STATE_LABELS).map(([value, text]) => (
            <option key={value} value={value}>
              {text}
            </option>
          ))}
        </select>
      </label>
      <label className="products__field">
        <span>Сортировка</span>
        <select
          aria-label="Сортировка"
          className="field__control"
          value={`${sortKey}:${desc ? 'desc' : 'asc'}`}
          onChange={(e) =>
            change((next) => {
              const [key, dir] = e.target.value.split(':')
              next.set('sort', key)
              if (dir === 'desc') next.set('dir', 'desc')
              else next.delete('dir')
            })
          }
        >
          {columns.flatMap(([label, key]) =>
            key
              ? [
                  <option key={`${key}:asc`} value={`${key}:asc`}>{`${label} ↑`}</option>,
                  <option key={`${key}:desc`} value={`${key}:desc`}>{`${label} ↓`}</option>,
                ]
              : [],
          )}
        </select>
      </label>
      {(
        [
          ['noPhoto', 'Без фото'],
          ['noPrice', 'Без цены'],
          ['noDescription', 'Без описания'],
        ] as const
      ).map(([key, label]) => (
        <label key={key} className="products__check">
          <input
            type="checkbox"
            checked={filter.get(key) === '1'}
            onChange={(e) => set(key, e.target.checked ? '1' : null)}
          />
          <span>{label}</span>
        </label>
      ))}
      <button type="submit" className="button">
        Найти
      </button>
    </form>
  )
}
