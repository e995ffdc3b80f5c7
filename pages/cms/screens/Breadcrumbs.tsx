import type { NavLink } from '../../../src/site/types'

export function Breadcrumbs({ items }: { items: NavLink[] }) {
  if (items.length < 2) return null
  return (
    <nav className="breadcrumbs" aria-label="Навигационная цепочка">
      <ol>
        {items.map((item, i) => (
          <li key={item.url}>
            {i < items.length - 1 ? <a href={item.url}>{item.title}</a> : <span aria-current="page">{item.title}</span>}
          </li>
        ))}
      </ol>
    </nav>
  )
}
