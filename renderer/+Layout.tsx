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
import { serializeJsonLd } from '../src/site/json-ld'
import { CookieNotice } from './layout/CookieNotice'
import { Footer } from './layout/Footer'
import { Header } from './layout/Header'

export function Layout({ children }: { children: ReactNode }) {
  const { site, publicSettings, urlPathname } = usePageContext()
  const counterId = publicSettings?.metrikaId ?? null
  const context: IslandContext = {
    mediaUrl: publicSettings?.mediaUrl ?? '',
    lead: {
      tel: site?.tel ?? null,
      consentUrl: site?.consentUrl ?? null,
      metrikaId: publicSettings?.metrikaId ?? null,
    },
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
          {/* Only while the site has a counter: with no optional cookie there is nothing to ask. */}
          {counterId !== null && publicSettings && (
            <CookieNotice
              counterId={counterId}
              counterSrc={publicSettings.metrikaTagUrl}
              version={site?.cookieVersion ?? ''}
              moreUrl={site?.cookiesUrl ?? site?.policyUrl ?? null}
            />
          )}
        </div>
        {/* What the islands read in the browser (src/islands/hydrate.tsx). */}
        <script
          type="application/json"
          id={ISLAND_CONTEXT_ID}
          dangerouslySetInnerHTML={{
            // The media origin only when it is another: '' (the page's own) is what hydrate.tsx assumes.
            __html: serializeJsonLd(context.mediaUrl ? context : { lead: context.lead }),
          }}
        />
      </LeadSettingsContext>
    </MediaContext>
  )
}
