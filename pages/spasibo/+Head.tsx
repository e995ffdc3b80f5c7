// https://vike.dev/Head — the thank-you page is reached by a 303 after a no-JS post, never by search.
export function Head() {
  return <meta name="robots" content="noindex" />
}
