// https://vike.dev/Head — tags shared by every page.
import faviconUrl from './assets/favicon.svg'

export function Head() {
  return (
    <>
      <link rel="icon" href={faviconUrl} type="image/svg+xml" />
      <meta name="theme-color" content="#23303d" />
      <meta name="format-detection" content="telephone=no" />
    </>
  )
}
