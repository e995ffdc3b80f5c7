// https://vike.dev/Layout — header, the routed page (or the error view), footer.
import './layout/layout.css'
import './layout/header.css'
import './layout/footer.css'
import './layout/cookie-notice.css'
import '../src/components/modal/modal.css'
import type { ReactNode } from 'react'
import { usePageContext } from 'vike-react/usePageContext'
import { MediaContext } from '../src/components/media-context'
import { ISLAND_CONTEXT_ID, type IslandContext } from '../src/islands/island-root'
import { LeadSettingsContext } from '../src/lead/lead-settings'
import { DEFAULT_COUNTER_SRC } from '../src/site/cookie-consent'
import { serializeJsonLd } from '../src/site/json-ld'
import { Footer } from './layout/Footer'
import { Header } from './layout/Header'

export function Layout({ children }: { children: ReactNode }) {
  const { site, publicSettings, urlPathname } = usePageContext()
  const counterId = publicSettings?.metrikaId ?? null
  const more = site?.cookiesUrl ?? site?.policyUrl
  const counterSrc = publicSettings?.metrikaTagUrl
  const context: IslandContext = {
    mediaUrl: publicSettings?.mediaUrl ?? '',
    lead: { tel: site?.tel ?? null, consentUrl: site?.consentUrl ?? null, metrikaId: counterId },
    // The cookie notice (src/site/cookie-notice.ts builds it): only while the site has a counter,
    // since with no optional cookie there is nothing to ask.
    ...(counterId !== null && {
      cookie: {
        version: site?.cookieVersion ?? '',
        ...(more && { more }),
        ...(counterSrc && counterSrc !== DEFAULT_COUNTER_SRC && { src: counterSrc }),
      },
    }),
  }
  return (
    <MediaContext value={context.mediaUrl}>
      <LeadSettingsContext value={context.lead}>
        {/* Goes inert while a dialog is open (src/components/modal/ModalProvider.tsx); display:
            contents keeps the layout's flex column. */}
        <div className="modal-page">
          <a className="skip-link" href="#main">
            Перейти к содержимому
          </a>
          <Header site={site ?? null} currentUrl={urlPathname} />
          <main id="main" className="page" tabIndex={-1}>
            {children}
          </main>
          <Footer site={site ?? null} />
        </div>
        {/* What the islands read in the browser (src/islands/hydrate.tsx). */}
        <script
          type="application/json"
          id={ISLAND_CONTEXT_ID}
          dangerouslySetInnerHTML={{
            // The media origin only when it is another: '' (the page's own) is what hydrate.tsx assumes.
            __html: serializeJsonLd(context.mediaUrl ? context : { ...context, mediaUrl: undefined }),
          }}
        />
      </LeadSettingsContext>
    </MediaContext>
  )
}
