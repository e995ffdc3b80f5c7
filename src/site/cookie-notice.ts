// The cookie notice's browser side (docs/decisions/027-personal-data.md): reads the visitor's
// choice from a cookie, builds and shows the notice when there is none, loads the counter only after
// «Принять», and removes the counter's cookies on «Отклонить» or a withdrawal. Every page is the same
// for everyone (the page cache serves one copy), so the page carries only the counter's id, the
// text's version and the full text's page, among the values it gives its browser code
// (`island-context`, renderer/+Layout.tsx); the notice's element, its words and controls and the
// footer's «Настройки cookie» are built here, from a file
// the browser keeps, not sent again in every page (decision 035). Without JavaScript nothing is
// built: no counter can load then, so there is nothing to ask.
import {
  COOKIE_CHOICE_MAX_AGE,
  COOKIE_CHOICE_NAME,
  COOKIE_NOTICE_ID,
  COOKIE_NOTICE_TEXT as T,
  DEFAULT_COUNTER_SRC,
  type CookieNoticeSettings,
} from './cookie-consent'
import { PATHS } from './paths'

type Choice = '0' | '1'
type Counter = ((...args: unknown[]) => void) & { a?: unknown[][]; l?: number }
type CounterWindow = Window & { ym?: Counter } & Record<string, unknown>

function el(tag: string, attrs: Record<string, string | true>, ...children: (Node | string)[]): HTMLElement {
  const node = document.createElement(tag)
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value === true ? '' : value)
  node.append(...children)
  return node
}

const button = (action: string, text: string, attrs: Record<string, string> = {}) =>
  el('button', { type: 'button', class: 'button cookie-notice__button', 'data-action': action, ...attrs }, text)

/** The notice's content: its title, text, the three answers and the settings panel. */
function content(moreUrl: string | undefined): HTMLElement {
  const text = el('p', { class: 'cookie-notice__text' }, T.body)
  if (moreUrl) text.append(' ', el('a', { href: moreUrl }, T.more))
  return el(
    'div',
    { class: 'cookie-notice__inner container' },
    el('h2', { id: 'cookie-notice-title', class: 'cookie-notice__title' }, T.title),
    text,
    el(
      'div',
      { class: 'cookie-notice__panel', id: 'cookie-notice-panel', 'data-panel': true, hidden: true },
      el(
        'p',
        { class: 'cookie-notice__option' },
        el('input', { type: 'checkbox', id: 'cookie-required', checked: true, disabled: true }),
        el('label', { for: 'cookie-required' }, T.required),
      ),
      el(
        'p',
        { class: 'cookie-notice__option' },
        el('input', {
          type: 'checkbox',
          id: 'cookie-analytics',
          'data-analytics': true,
          'aria-describedby': 'cookie-analytics-hint',
        }),
        el('label', { for: 'cookie-analytics' }, T.analytics),
        el('span', { id: 'cookie-analytics-hint', class: 'cookie-notice__hint' }, T.analyticsHint),
      ),
      button('save', T.save),
    ),
    el(
      'div',
      { class: 'cookie-notice__actions' },
      button('accept', T.accept),
      button('reject', T.reject),
      button('settings', T.settings, { 'aria-expanded': 'false', 'aria-controls': 'cookie-notice-panel' }),
    ),
  )
}

/**
 * Acts on the visitor's choice under the page's notice settings (the counter, the text's version,
 * its page, and the counter's script when it is not Yandex's): loads the counter after a yes,
 * shows the notice when there is no choice under this text's version, and adds the footer's
 * «Настройки cookie», which opens it again. The notice's element is placed at the end of the page's
 * content, which goes inert under a dialog.
 */
export function installCookieNotice(
  id: number,
  { version, more, src = DEFAULT_COUNTER_SRC }: CookieNoticeSettings,
): void {
  const notice = el('section', { id: COOKIE_NOTICE_ID, hidden: true })
  ;(document.querySelector('.modal-page') ?? document.body).append(notice)
  const w = window as unknown as CounterWindow
  const choicePattern = new RegExp(`(?:^|; )${COOKIE_CHOICE_NAME}=([01])\\.([^;]*)`)
  const choice = (): Choice | null => {
    const match = choicePattern.exec(document.cookie)
    return match && match[2] === version ? (match[1] as Choice) : null
  }
  const part = <T extends Element>(selector: string) => notice.querySelector<T>(selector)!

  function load() {
    w[`disableYaCounter${id}`] = false
    if (w.ym) return
    const ym: Counter = (...args) => (ym.a ??= []).push(args)
    ym.l = Date.now()
    w.ym = ym
    const script = document.createElement('script')
    script.async = true
    script.src = src
    document.head.appendChild(script)
    ym(id, 'init', { clickmap: true, trackLinks: true, accurateTrackBounce: true })
  }

  /** The counter off, and its cookies (on this host and each parent domain) and storage gone. */
  function wipe() {
    w[`disableYaCounter${id}`] = true
    const host = location.hostname.split('.')
    for (const cookie of document.cookie.split('; ')) {
      const name = cookie.split('=')[0]
      if (!/^_ym/.test(name)) continue
      for (let i = 0; i < host.length; i++) {
        document.cookie = `${name}=; Max-Age=0; Path=/; Domain=${host.slice(i).join('.')}`
      }
      document.cookie = `${name}=; Max-Age=0; Path=/`
    }
    try {
      for (const key of Object.keys(localStorage)) if (/^_ym/.test(key)) localStorage.removeItem(key)
    } catch {
      // Storage may be off; then the counter kept nothing there either.
    }
  }

  function save(analytics: boolean) {
    const secure = location.protocol === 'https:' ? '; Secure' : ''
    document.cookie = `${COOKIE_CHOICE_NAME}=${analytics ? 1 : 0}.${version}; Max-Age=${COOKIE_CHOICE_MAX_AGE}; Path=/; SameSite=Lax${secure}`
    if (analytics) load()
    else wipe()
    notice.hidden = true
    fetch(PATHS.cookieChoice, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ analytics, version }),
      keepalive: true,
    }).catch(() => {})
  }

  function show() {
    if (!notice.firstChild) {
      notice.className = 'cookie-notice'
      notice.setAttribute('aria-labelledby', 'cookie-notice-title')
      notice.append(content(more))
    }
    notice.hidden = false
  }

  function panel(open: boolean) {
    part<HTMLElement>('[data-panel]').hidden = !open
    part('[data-action=settings]').setAttribute('aria-expanded', String(open))
    if (open) {
      const analytics = part<HTMLInputElement>('[data-analytics]')
      analytics.checked = choice() === '1'
      analytics.focus()
    }
  }

  notice.addEventListener('click', (event) => {
    const action = (event.target as Element).closest('button')?.getAttribute('data-action')
    if (action === 'accept') save(true)
    else if (action === 'reject') save(false)
    else if (action === 'settings') panel(part<HTMLElement>('[data-panel]').hidden)
    else if (action === 'save') save(part<HTMLInputElement>('[data-analytics]').checked)
  })
  // The footer's way back to the notice, before its copyright line.
  const settings = el('button', { type: 'button', class: 'footer__cookies' }, T.footerLink)
  settings.addEventListener('click', () => {
    show()
    panel(true)
  })
  const footer = document.querySelector('footer .footer__inner')
  const copyright = footer?.querySelector('.footer__copyright')
  if (copyright) copyright.before(settings)
  else footer?.append(settings)
  const current = choice()
  if (current === '1') load()
  else if (current === null) show()
}
