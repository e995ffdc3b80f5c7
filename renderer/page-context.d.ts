import type { SearchSource } from '../src/site/search-types'
import type { RequestListSource } from '../src/lead/request-list-view'
import type { ContentSource, PublicSettings, SiteInfo } from '../src/site/types'
import type { PageReads } from '../src/site/page-tags'
import type { pageDocument } from './document'

declare global {
  namespace Vike {
    interface Config {
      /** Whether the page cache may keep this page's answers (default true) */
      pageCache?: boolean
      /** The query parameters this page reads; the page cache keys its entries by these only */
      pageQuery?: readonly string[]
      /** Headers every answer of this page carries (lower-case names) */
      pageHeaders?: Readonly<Record<string, string>>
      /** Whether the page's HTML answers name the speculation rules in their header (default true) */
      speculationRules?: boolean
      /**
       * The page's 200 answers depend only on its path, its pageQuery and its data (`+data` reading
       * through pageContext.content): the server may render them without Vike's renderPage()
       */
      directRender?: boolean
      /**
       * The page's `+data` sets `pageContext.site` from the one content call that reads its page;
       * `+onCreatePageContext` then does not read the site
       */
      siteInData?: boolean
      /** The page's screens read parts of its pageQuery; its own `+Head` declares each screen's part */
      screenQuery?: boolean
      /** The function that makes the page's HTML document (renderer/document.ts) */
      document?: typeof pageDocument
    }
    interface PageContext {
      /** Server-only: the server's content service, given to renderPage() */
      content?: ContentSource
      /** Server-only: collects what the rendering read, for the page cache (src/site/page-tags.ts) */
      pageReads?: PageReads
      /** Server-only: the catalogue search (the /poisk page) */
      catalogueSearch?: SearchSource
      /** Server-only: the request list's lines with today's titles and prices (the list page) */
      requestList?: RequestListSource
      /** Set by POST /moya-zayavka when it renders the list page back with why a change was refused */
      requestListNotice?: string
      /** The index record owning this URL (header and footer): +onCreatePageContext's, or +data's (siteInData) */
      site?: SiteInfo | null
      publicSettings?: PublicSettings
    }
  }
}

export {}
