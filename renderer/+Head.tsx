// https://vike.dev/Head — tags shared by every page.
import { usePageContext } from 'vike-react/usePageContext'
import { SPECULATION_RULES } from '../src/site/inline-scripts'

export function Head() {
  const { config } = usePageContext()
  // The query parameters the page reads (its pageQuery): a link changing one of them loads a new
  // page, a link changing only others stays (renderer/navigation.ts).
  const query = config.pageQuery ?? []
  // No icon link: browsers then ask for /favicon.ico, which the server makes from
  // renderer/assets/favicon.svg (server/site/seo.ts). Inlined, the icon was 1.2 KB of every page's
  // HTML (0.45 KB gzip); linked, its tag was still 32 bytes gzip (docs/decisions/035-lighter-html.md).
  return (
    <>
      <meta name="theme-color" content="#23303d" />
      <meta name="format-detection" content="telephone=no" />
      {query.length > 0 && <meta name="vitrina-query" content={query.join(' ')} />}
      <script type="speculationrules" dangerouslySetInnerHTML={{ __html: SPECULATION_RULES }} />
    </>
  )
}
