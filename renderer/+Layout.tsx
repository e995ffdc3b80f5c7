// https://vike.dev/Layout — header, the routed page (or the error view), footer.
import './layout/layout.css'
import './layout/header.css'
import './layout/footer.css'
import type { ReactNode } from 'react'
import { usePageContext } from 'vike-react/usePageContext'
import { MediaContext } from '../src/components/media-context'
import { ModalProvider } from '../src/components/modal/ModalProvider'
import { LeadSettingsContext } from '../src/lead/lead-settings'
import { Footer } from './layout/Footer'
import { Header } from './layout/Header'

export function Layout({ children }: { children: ReactNode }) {
  const { site, publicSettings } = usePageContext()
  const leadSettings = {
    tel: site?.tel ?? null,
    consentUrl: site?.consentUrl ?? null,
    metrikaId: publicSettings?.metrikaId ?? null,
  }
  return (
    <MediaContext value={publicSettings?.mediaUrl ?? ''}>
      <LeadSettingsContext value={leadSettings}>
        {/* The dialog stack: the lead dialog opens from the header, the footer and product pages. */}
        <ModalProvider>
          <a className="skip-link" href="#main">
            Перейти к содержимому
          </a>
          <Header site={site ?? null} />
          <main id="main" className="page" tabIndex={-1}>
            {children}
          </main>
          <Footer site={site ?? null} />
        </ModalProvider>
      </LeadSettingsContext>
    </MediaContext>
  )
}
