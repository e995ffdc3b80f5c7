// The cookie notice (docs/decisions/027-personal-data.md): in every page while a counter is
// configured, an empty, hidden landmark carrying the counter and the text's version. The browser's
// code (src/site/cookie-notice.ts) fills and shows it when the visitor has not chosen yet: its words
// and controls are not sent again in every page (docs/decisions/035-lighter-html.md). Without
// JavaScript it stays hidden: no counter can load then, so there is nothing to ask.
import { COOKIE_NOTICE_ID, COOKIE_NOTICE_TEXT as T } from '../../src/site/cookie-consent'

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
    <section
      id={COOKIE_NOTICE_ID}
      className="cookie-notice"
      aria-labelledby="cookie-notice-title"
      hidden
      data-counter={counterId}
      data-src={counterSrc}
      data-version={version}
      data-more={moreUrl ?? undefined}
    />
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
