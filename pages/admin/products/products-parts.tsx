// Parts of «Товары» (ProductsScreen.tsx): the choice of every product on the page or by the
// filter, the table's sortable head, and the last actions' log.
import { useId } from 'react'
import type { AuditEntry } from '../../../src/admin/admin-products'
import { formatDateTimeIn } from '../../../src/format/format-date'

export function ChooseAll(props: {
  allOnPage: boolean
  onAllOnPage: (checked: boolean) => void
  everything: boolean
  onEverything: (checked: boolean) => void
  total: string
}) {
  const { allOnPage, onAllOnPage, everything, onEverything, total } = props
  return (
    <div className="products__choose admin-toolbar">
      <label className="products__check">
        <input type="checkbox" checked={allOnPage} onChange={(e) => onAllOnPage(e.target.checked)} />
        <span>Выбрать все на странице</span>
      </label>
      <label className="products__check">
        <input type="checkbox" checked={everything} onChange={(e) => onEverything(e.target.checked)} />
        <span>Все {total} по фильтру</span>
      </label>
    </div>
  )
}

/** The head of the table: each sortable column a button, the sorted one marked for a screen reader too. */
export function ProductsHead(props: {
  columns: readonly (readonly [string, string | null])[]
  sortKey: string
  desc: boolean
  onSort: (key: string) => void
}) {
  const { columns, sortKey, desc, onSort } = props
  return (
    <thead>
      <tr>
        <th scope="col">
          <span className="visually-hidden">Выбор</span>
        </th>
        {columns.map(([label, key]) => (
          <th key={label} scope="col" aria-sort={key === sortKey ? (desc ? 'descending' : 'ascending') : undefined}>
            {key ? (
              <button type="button" className="products__sort" onClick={() => onSort(key)}>
                {label}
                {key === sortKey ? (desc ? ' ↓' : ' ↑') : ''}
              </button>
            ) : (
              label
            )}
          </th>
        ))}
      </tr>
    </thead>
  )
}

/** The last ten actions on products: when, who, what, to how many. */
export function ProductsAudit({ audit, timeZone }: { audit: readonly AuditEntry[]; timeZone: string }) {
  const id = useId()
  if (audit.length === 0) return null
  return (
    <section className="admin-panel" aria-labelledby={`${id}-audit`}>
      <h2 id={`${id}-audit`} className="products__subtitle">
        Журнал действий
      </h2>
      <ul className="products__audit">
        {audit.slice(0, 10).map((entry) => (
          <li key={`${entry.at}-${entry.action}`}>
            <time dateTime={entry.at}>{formatDateTimeIn(entry.at, timeZone)}</time> — {entry.who}: {entry.action},
            товаров: {entry.count}
          </li>
        ))}
      </ul>
    </section>
  )
}
