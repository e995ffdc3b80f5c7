import { useEffect, useId, useState } from 'react'
import type { NavLink } from '../../src/site/types'

/** The catalogue menu: a row on wide screens, an open/closed panel behind a toggle on phones. */
export function NavMenu({ links, currentUrl }: { links: NavLink[]; currentUrl: string }) {
  const [open, setOpen] = useState(false)
  const id = useId()
  useEffect(() => {
    if (!open) return
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpen(false)
    }
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  }, [open])
  if (links.length === 0) return null
  return (
    <nav className={`nav ${open ? 'nav--open' : ''}`} aria-label="Каталог">
      <button
        type="button"
        className="nav__toggle"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen(!open)}
      >
        <span className="nav__toggle-icon" aria-hidden="true" />
        {open ? 'Закрыть меню' : 'Меню'}
      </button>
      <ul className="nav__list" id={id}>
        {links.map((link) => (
          <li key={link.url}>
            <a href={link.url} aria-current={link.url === currentUrl ? 'page' : undefined}>
              {link.title}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  )
}
