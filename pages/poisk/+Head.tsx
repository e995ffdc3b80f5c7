// https://vike.dev/Head — search results are not a page for a search engine's index.
export function Head() {
  return <meta name="robots" content="noindex, follow" />
}
