import { useEffect, useRef, useState } from 'react'

/** The menu's list: one catalogue menu per page (renderer/layout/Header.tsx). */
export const NAV_LIST_ID = 'catalogue-menu'

/**
 * The catalogue menu's toggle on phones (an island inside the server's NavMenu): opens and closes
 * the menu around it (`.nav--open`), Escape closes it.
 */
export function NavToggle() {
  const [open, setOpen] = useState(false)
  const button = useRef<HTMLButtonElement>(null)
  useEffect(() => {
    button.current?.closest('.nav')?.classList.toggle('nav--open', open)
    if (!open) return
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpen(false)
    }
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  }, [open])
  return (
    <button
      ref={button}
      type="button"
      className="nav__toggle"
      aria-expanded={open}
      aria-controls={NAV_LIST_ID}
      onClick={() => setOpen(!open)}
    >
      <span className="nav__toggle-icon" aria-hidden="true" />
      {open ? 'Закрыть меню' : 'Меню'}
    </button>
  )
}
