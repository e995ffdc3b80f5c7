import '../../../renderer/layout/layout.css'
import '../admin.css'
import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react'
import { usePageContext } from 'vike-react/usePageContext'
import { ApiError } from '../../../src/api/http-client'
import { checkSession, createAdminApi, signOut } from '../../../src/admin/admin-api'
import { AdminContext } from './admin-context'
import { SignIn } from './SignIn'
import { NotSetUp } from './NotSetUp'
import { SetupPassword } from './SetupPassword'
import type { SignInWith } from '../../../src/admin/admin-password'
import { ADMIN_PATHS } from '../../../src/site/paths'

type SessionState = 'checking' | 'signed-out' | 'expired' | 'signed-in' | 'unavailable' | 'not-set-up'

const NAV = [
  { href: ADMIN_PATHS.leads, label: 'Заявки' },
  { href: ADMIN_PATHS.content, label: 'Содержимое' },
  { href: ADMIN_PATHS.products, label: 'Товары' },
  { href: ADMIN_PATHS.priceList, label: 'Прайс-лист' },
  { href: ADMIN_PATHS.exchange, label: 'Обмен с 1С' },
  { href: ADMIN_PATHS.characteristics, label: 'Характеристики' },
  { href: ADMIN_PATHS.privacy, label: 'Персональные данные' },
  { href: ADMIN_PATHS.settings, label: 'Настройки' },
  { href: ADMIN_PATHS.password, label: 'Пароль' },
] as const

/**
 * The back office's frame instead of the site's header and footer: the session gate (the sign-in
 * form until there is a session, and again when it expires; while no password exists, where the
 * one-time link to choose one is; at that link, its form), the navigation and sign-out.
 */
export function AdminLayout({ children }: { children: ReactNode }) {
  const { urlPathname } = usePageContext()
  const [state, setState] = useState<SessionState>('checking')
  const [timeZone, setTimeZone] = useState('Europe/Moscow')
  const [signInWith, setSignInWith] = useState<SignInWith>('owner')
  const [problem, setProblem] = useState<string | null>(null)
  const expire = useCallback(() => setState('expired'), [])
  const session = useMemo(() => ({ api: createAdminApi(expire), timeZone, signInWith }), [expire, timeZone, signInWith])
  // The one-time link's form needs no session: it makes the first one.
  const onSetup = urlPathname === ADMIN_PATHS.setup

  const check = useCallback(() => {
    checkSession().then(
      (info) => {
        if (info) {
          setTimeZone(info.timeZone)
          setSignInWith(info.signInWith)
        }
        setState(info ? 'signed-in' : 'signed-out')
      },
      (failure: unknown) => {
        if (failure instanceof ApiError && failure.code === 'not_configured') return setState('not-set-up')
        setProblem(failure instanceof ApiError && failure.status !== 0 ? failure.message : null)
        setState('unavailable')
      },
    )
  }, [])
  useEffect(() => {
    if (!onSetup) check()
  }, [check, onSetup])

  async function leave() {
    try {
      await signOut()
    } finally {
      setState('signed-out')
    }
  }

  const signedIn = state === 'signed-in' && !onSetup
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
        {onSetup ? <SetupPassword /> : <Gate state={state} problem={problem} onSignedIn={check} />}
        {/* An expired session hides the screen rather than dropping it: unsaved edits are still
            there after signing in again. */}
        {(signedIn || (state === 'expired' && !onSetup)) && (
          <div hidden={!signedIn}>
            <AdminContext value={session}>{children}</AdminContext>
          </div>
        )}
      </main>
    </div>
  )
}

/** What shows instead of a screen until there is a session. */
function Gate({ state, problem, onSignedIn }: { state: SessionState; problem: string | null; onSignedIn: () => void }) {
  return (
    <>
      {state === 'checking' && <p role="status">Проверяем вход…</p>}
      {state === 'unavailable' && (
        <p role="alert" className="admin-error">
          {problem ?? 'Сервер не отвечает. Обновите страницу через минуту.'}
        </p>
      )}
      {state === 'not-set-up' && <NotSetUp />}
      {(state === 'signed-out' || state === 'expired') && (
        <SignIn notice={state === 'expired' ? 'Сессия истекла. Войдите снова.' : null} onSignedIn={onSignedIn} />
      )}
    </>
  )
}

function isCurrent(href: string, pathname: string): boolean {
  return href === ADMIN_PATHS.leads ? pathname === href : pathname.startsWith(href)
}
