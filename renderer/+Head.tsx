// https://vike.dev/Head — tags shared by every page.
import { usePageContext } from 'vike-react/usePageContext'
import { SPECULATION_RULES } from '../src/site/inline-scripts'
// Its own file, not a data: URI in every page (the default for an asset under 4 KiB): 1.2 KB of
// each page's HTML, about 0.45 KB gzip, becomes a request the browser caches (decision 035).
import faviconUrl from './assets/favicon.svg?no-inline'

export function Head() {
  const { config } = usePageContext()
  // The query parameters the page reads (its pageQuery): a link changing one of them loads a new
  // page, a link changing only others stays (renderer/navigation.ts).
  const query = config.pageQuery ?? []
  return (
    <>
      <link rel="icon" href={faviconUrl} type="image/svg+xml" />
      <meta name="theme-color" content="#23303d" />
      <meta name="format-detection" content="telephone=no" />
      {query.length > 0 && <meta name="vitrina-query" content={query.join(' ')} />}
      <script type="speculationrules" dangerouslySetInnerHTML={{ __html: SPECULATION_RULES }} />
    </>
  )
}
