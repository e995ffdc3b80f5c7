// «Товары»'s filters: the search, the section (with its subsections), availability, visibility,
// the sort (for a phone, where the table's headers are not shown) and «без фото», «без цены», «без
// описания». Each change goes into the URL (ProductsScreen.tsx).
import type { FormEvent } from 'react'
import {
  AVAILABILITY_LABELS,
  STATE_LABELS,
  sectionOptionText,
  type SectionOption,
} from '../../../src/admin/admin-products'
import { LabelledSelect } from './LabelledSelect'

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
      <LabelledSelect
        label="Раздел"
        value={filter.get('section') ?? ''}
        options={sections.map((section) => [String(section.id), sectionOptionText(section)] as const)}
        empty="Все разделы"
        onChange={(value) => set('section', value || null)}
      />
      <LabelledSelect
        label="Наличие"
        value={filter.get('avail') ?? ''}
        options={AVAILABILITY_LABELS}
        empty="Любое"
        onChange={(value) => set('avail', value || null)}
      />
      <LabelledSelect
        label="Видимость"
        value={filter.get('state') ?? ''}
        options={STATE_LABELS}
        empty="Любая"
        onChange={(value) => set('state', value || null)}
      />
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
