// urlFull helpers shared by the server's route map and the pages.

/** Collapses repeated slashes; keeps a trailing slash if there was one. */
export function normalizePath(pathname: string): string {
  const collapsed = pathname.replace(/\/{2,}/g, '/')
  return collapsed.startsWith('/') ? collapsed : `/${collapsed}`
}

/** The same path with its trailing slash toggled ('/a' ↔ '/a/'); '/' has none. */
export function toggleTrailingSlash(pathname: string): string | null {
  if (pathname === '/') return null
  return pathname.endsWith('/') ? pathname.slice(0, -1) : `${pathname}/`
}

/** Whether urlFull owns pathname: equal, or a folder prefix of it. */
export function isPrefixOf(urlFull: string, pathname: string): boolean {
  if (urlFull === pathname) return true
  const folder = urlFull.endsWith('/') ? urlFull : `${urlFull}/`
  return pathname.startsWith(folder)
}

/** The media URL of a stored image path; absolute URLs pass through. */
export function mediaSrc(mediaUrl: string, image: string): string {
  if (/^(https?:)?\/\//.test(image) || image.startsWith('data:')) return image
  return `${mediaUrl}/media/${image.replace(/^\/+/, '')}`
}

/**
 * A record's URL under a new parent: the parent's path and the record's own last segment
 * (`/tools/` + `/garden/hose` → `/tools/hose`); a section keeps its trailing slash.
 */
export function urlUnder(parentUrl: string, urlFull: string): string {
  const slug = /([^/]+\/?)$/.exec(urlFull)?.[1] ?? ''
  return `${parentUrl.endsWith('/') ? parentUrl : `${parentUrl}/`}${slug}`
}
