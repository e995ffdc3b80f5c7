// https://vike.dev/Head — tags shared by every page.
import { SPECULATION_RULES } from '../src/site/inline-scripts'
import faviconUrl from './assets/favicon.svg'

export function Head() {
  return (
    <>
      <link rel="icon" href={faviconUrl} type="image/svg+xml" />
      <meta name="theme-color" content="#23303d" />
      <meta name="format-detection" content="telephone=no" />
      <script type="speculationrules" dangerouslySetInnerHTML={{ __html: SPECULATION_RULES }} />
    </>
  )
}
