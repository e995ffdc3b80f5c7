// The cookie notice (docs/decisions/027-personal-data.md): in every page while a counter is
// configured, hidden until the inline script (src/site/cookie-consent.ts) finds no choice. Three
// buttons of one size and weight: no way of saying yes is easier than saying no. Without
// JavaScript it stays hidden: no counter can load then, so there is nothing to ask.
import { COOKIE_CONSENT_SCRIPT, COOKIE_NOTICE_ID, COOKIE_NOTICE_TEXT as T } from '../../src/site/cookie-consent'
import { PATHS } from '../../src/site/paths'

interface CookieNoticeProps {
  readonly counterId: number
  readonly counterSrc: string
  /** Version (hash) of the cookie notice's text: a choice made under another text is asked again */
  readonly version: string
  /** The page with the full text, when the site has one */
  readonly moreUrl: string | null
}

export function CookieNotice({ counterId, counterSrc, version, moreUrl }: CookieNoticeProps) {
  return (
    <>
      <section
        id={COOKIE_NOTICE_ID}
        className="cookie-notice"
        aria-labelledby="cookie-notice-title"
        hidden
        data-counter={counterId}
        data-src={counterSrc}
        data-version={version}
        data-endpoint={PATHS.cookieChoice}
      >
        <div className="cookie-notice__inner container">
          <h2 id="cookie-notice-title" className="cookie-notice__title">
            {T.title}
          </h2>
          <p className="cookie-notice__text">
            {T.body}
            {moreUrl && (
              <>
                {' '}
                <a href={moreUrl}>{T.more}</a>
              </>
            )}
          </p>
          <div className="cookie-notice__panel" id="cookie-notice-panel" data-panel hidden>
            <p className="cookie-notice__option">
              <input type="checkbox" id="cookie-required" checked disabled />
              <label htmlFor="cookie-required">{T.required}</label>
            </p>
            <p className="cookie-notice__option">
              <input type="checkbox" id="cookie-analytics" data-analytics aria-describedby="cookie-analytics-hint" />
              <label htmlFor="cookie-analytics">{T.analytics}</label>
              <span id="cookie-analytics-hint" className="cookie-notice__hint">
                {T.analyticsHint}
              </span>
            </p>
            <button type="button" className="button cookie-notice__button" data-action="save">
              {T.save}
            </button>
          </div>
          <div className="cookie-notice__actions">
            <button type="button" className="button cookie-notice__button" data-action="accept">
              {T.accept}
            </button>
            <button type="button" className="button cookie-notice__button" data-action="reject">
              {T.reject}
            </button>
            <button
              type="button"
              className="button cookie-notice__button"
              data-action="settings"
              aria-expanded="false"
              aria-controls="cookie-notice-panel"
            >
              {T.settings}
            </button>
          </div>
        </div>
      </section>
      <script dangerouslySetInnerHTML={{ __html: COOKIE_CONSENT_SCRIPT }} />
    </>
  )
}

/** The footer's way back to the notice; shown by the script, so never a dead button without it. */
export function CookieSettingsLink() {
  return (
    <button type="button" className="footer__cookies" data-cookie-settings hidden>
      {T.footerLink}
    </button>
  )
}
