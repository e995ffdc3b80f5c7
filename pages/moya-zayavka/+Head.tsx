// https://vike.dev/Head — one visitor's list, not content: kept out of search results.
export function Head() {
  return <meta name="robots" content="noindex" />
}
