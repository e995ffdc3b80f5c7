// Which query parameters a page declares (its `pageQuery`, docs/decisions/012-page-cache.md). A
// declared name ending in a dot is a family: `f.` declares `f.12`, `f.7`, … (a section's filters by
// characteristic, docs/decisions/042-characteristics-and-filters.md), so a page can read parameters
// named by ids it does not know in advance and still see nothing else.

/**
 * The meta element by which a page tells its browser code the query parameters it reads
 * (`<meta name="vitrina-query" content="page sort">`, renderer/navigation.ts); none when it reads none.
 */
export const QUERY_META_NAME = 'vitrina-query'

/** Whether `name` is one of `declared`: the same name, or a name of a declared family (`f.` → `f.12`). */
export function isDeclaredName(declared: readonly string[], name: string): boolean {
  for (const d of declared) {
    if (!d.endsWith('.') ? d === name : name.length > d.length && name.startsWith(d)) return true
  }
  return false
}

/** Code unit order of names, equal names kept in place (a stable sort keeps a repeated name's values in order). */
export function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}
