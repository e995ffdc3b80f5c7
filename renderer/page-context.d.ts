import type { ContentSource, PublicSettings, SiteInfo } from '../src/site/types'

declare global {
  namespace Vike {
    interface PageContext {
      /** Server-only: the server's content service, given to renderPage() */
      content?: ContentSource
      /** The index record owning this URL (header and footer) */
      site?: SiteInfo | null
      publicSettings?: PublicSettings
    }
  }
}

export {}
