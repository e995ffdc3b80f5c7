// https://vike.dev/Layout — header, the routed page (or the error view), footer.
import './layout/layout.css'
import type { ReactNode } from 'react'
import { usePageContext } from 'vike-react/usePageContext'
import { MediaContext } from '../src/components/media-context'
import { Footer } from './layout/Footer'
import { Header } from './layout/Header'

export function Layout({ children }: { children: ReactNode }) {
  const { site, publicSettings } = usePageContext()
  return (
    <MediaContext value={publicSettings?.mediaUrl ?? ''}>
      <a className="skip-link" href="#main">Перейти к содержимому</a>
      <Header site={site ?? null} />
      <main id="main" className="page" tabIndex={-1}>{children}</main>
      <Footer site={site ?? null} />
    </MediaContext>
  )
}
