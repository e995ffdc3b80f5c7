// Error pages are never indexed.
export function Head() {
  return <meta name="robots" content="noindex" />
}
