// https://vike.dev/Head — a form page, not content: kept out of search results.
export function Head() {
  return <meta name="robots" content="noindex" />
}
