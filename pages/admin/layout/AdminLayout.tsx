import '../../../renderer/layout/layout.css'
import '../admin.css'
import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react'
import { usePageContext } from 'vike-react/usePageContext'
import { ApiError } from '../../../src/api/http-client'
import { checkSession, createAdminApi, signOut } from '../../../src/admin/admin-api'
import { AdminContext } from './admin-context'
import { SignIn } from './SignIn'
import { ADMIN_PATHS } from '../../../src/site/paths'

type SessionState = 'checking' | 'signed-out' | 'expired' | 'signed-in' | 'unavailable'

const NAV = [
  { href: ADMIN_PATHS.leads, label: 'Заявки' },
  { href: ADMIN_PATHS.content, label: 'Содержимое' },
  { href: ADMIN_PATHS.products, label: 'Товары' },
  { href: ADMIN_PATHS.priceList, label: 'Прайс-лист' },
  { href: ADMIN_PATHS.exchange, label: 'Обмен с 1С' },
  { href: ADMIN_PATHS.privacy, label: 'Персональные данные' },
  { href: ADMIN_PATHS.settings, label: 'Настройки' },
] as const

/**
 * The back office's frame instead of the site's header and footer: the session gate (the sign-in
 * form until there is a session, and again when it expires), the navigation and sign-out.
 */
export function AdminLayout({ children }: { children: ReactNode }) {
  const { urlPathname } = usePageContext()
  const [state, setState] = useState<SessionState>('checking')
  const [timeZone, setTimeZone] = useState('Europe/Moscow')
  const [problem, setProblem] = useState<string | null>(null)
  const expire = useCallback(() => setState('expired'), [])
  const session = useMemo(() => ({ api: createAdminApi(expire), timeZone }), [expire, timeZone])

  const check = useCallback(() => {
    checkSession().then(
      (info) => {
        if (info) setTimeZone(info.timeZone)
        setState(info ? 'signed-in' : 'signed-out')
      },
      (failure: unknown) => {
        setProblem(failure instanceof ApiError && failure.status !== 0 ? failure.message : null)
        setState('unavailable')
      },
    )
  }, [])
  useEffect(check, [check])

  async function leave() {
    try {
      await signOut()
    } finally {
      setState('signed-out')
    }
  }

  const signedIn = state === 'signed-in'
  return (
    <div className="admin">
      <a className="skip-link" href="#main">
        Перейти к содержимому
      </a>
      <header className="admin-header">
        <div className="admin-header__inner">
          <span className="admin-header__brand">Управление сайтом</span>
          {signedIn && (
            <nav className="admin-nav" aria-label="Разделы">
              {NAV.map((item) => (
                <a
                  key={item.href}
                  href={item.href}
                  className="admin-nav__link"
                  aria-current={isCurrent(item.href, urlPathname) ? 'page' : undefined}
                >
                  {item.label}
                </a>
              ))}
            </nav>
          )}
          {signedIn && (
            <button type="button" className="button button--quiet" onClick={() => void leave()}>
              Выйти
            </button>
          )}
        </div>
      </header>
      <main id="main" className="admin-main" tabIndex={-1}>
        {state === 'checking' && <p role="status">Проверяем вход…</p>}
        {state === 'unavailable' && (
          <p role="alert" className="admin-error">
            {problem ?? 'Сервер не отвечает. Обновите страницу через минуту.'}
          </p>
        )}
        {(state === 'signed-out' || state === 'expired') && (
          <SignIn notice={state === 'expired' ? 'Сессия истекла. Войдите снова.' : null} onSignedIn={check} />
        )}
        {/* An expired session hides the screen rather than dropping it: unsaved edits are still
            there after signing in again. */}
        {(signedIn || state === 'expired') && (
          <div hidden={!signedIn}>
            <AdminContext value={session}>{children}</AdminContext>
          </div>
        )}
      </main>
    </div>
  )
}

function isCurrent(href: string, pathname: string): boolean {
  return href === ADMIN_PATHS.leads ? pathname === href : pathname.startsWith(href)
}
