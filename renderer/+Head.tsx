// https://vike.dev/Head — tags shared by every page.
import { usePageContext } from 'vike-react/usePageContext'
import { QUERY_META_NAME } from '../src/site/query-names'

export function Head() {
  const { config } = usePageContext()
  // The query parameters the page reads (its pageQuery): a link changing one of them loads a new
  // page, a link changing only others stays (renderer/navigation.ts). A page whose screens read
  // parts of it (`screenQuery`) declares each screen's part in its own +Head.
  const query = config.screenQuery ? [] : (config.pageQuery ?? [])
  // No icon link: browsers then ask for /favicon.ico, which the server makes from
  // renderer/assets/favicon.svg (server/site/seo.ts). Inlined, the icon was 1.2 KB of every page's
  // HTML (0.45 KB gzip); linked, its tag was still 32 bytes gzip (docs/decisions/035-lighter-html.md).
  // No speculation rules either: the server names them in each page's `Speculation-Rules` header
  // (server/site/speculation-rules.ts); inline they were 108 bytes gzip of every page (decision 046).
  return (
    <>
      <meta name="theme-color" content="#23303d" />
      <meta name="format-detection" content="telephone=no" />
      {query.length > 0 && <meta name={QUERY_META_NAME} content={query.join(' ')} />}
    </>
  )
}
