// https://vike.dev/Head — `.clear` drops the site's head tags (the Metrika counter must not
// watch the owner reading leads); the back office is kept out of search engines.
import faviconUrl from '../../renderer/assets/favicon.svg'

export function Head() {
  return (
    <>
      <link rel="icon" href={faviconUrl} type="image/svg+xml" />
      <meta name="robots" content="noindex, nofollow" />
      <meta name="referrer" content="same-origin" />
    </>
  )
}
