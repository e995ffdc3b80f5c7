import type { NavLink } from '../../src/site/types'
import { Island } from '../../src/islands/Island'
import { NAV_LIST_ID, NavToggle } from './NavToggle'

/**
 * The catalogue menu: a row on wide screens, an open/closed panel behind a toggle on phones. The
 * links are plain HTML; only the toggle is an island, so the links are not written a second time
 * as its props (docs/decisions/035-lighter-html.md).
 */
export function NavMenu({ links, currentUrl }: { links: NavLink[]; currentUrl: string }) {
  if (links.length === 0) return null
  return (
    <nav className="nav" aria-label="Каталог">
      <Island name="nav" component={NavToggle} props={{}} />
      <ul className="nav__list" id={NAV_LIST_ID}>
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
