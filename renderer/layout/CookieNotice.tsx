// The cookie notice (docs/decisions/027-personal-data.md): in every page while a counter is
// configured, an empty, hidden element carrying the counter, the text's version and the page with
// the full text. The browser's code (src/site/cookie-notice.ts) builds the notice in it, and the
// footer's «Настройки cookie», when the visitor has not chosen yet: their words and controls are
// not sent again in every page (docs/decisions/035-lighter-html.md). Without JavaScript nothing is
// shown: no counter can load then, so there is nothing to ask.
import { COOKIE_NOTICE_ID, DEFAULT_COUNTER_SRC } from '../../src/site/cookie-consent'

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
      hidden
      data-counter={counterId}
      data-src={counterSrc === DEFAULT_COUNTER_SRC ? undefined : counterSrc}
      data-version={version}
      data-more={moreUrl ?? undefined}
    />
  )
}
