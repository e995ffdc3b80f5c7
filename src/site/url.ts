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

/** RFC 3986 §2.3: the characters a URL never needs to escape */
const UNRESERVED = /^[A-Za-z0-9._~-]$/

/**
 * The canonical spelling of a request's path and query (RFC 3986 §6.2.2.1–2), or null when the
 * path is spelled so already: an escape of an unreserved character decoded (`%70` → `p`), any other
 * escape in upper-case hex (`%d0%b4` → `%D0%B4`; `%2F`, `%3F`, `%25` stay escaped), the query as it
 * came. Null too when the canonical spelling could lead elsewhere: a `.` or `..` segment, a path
 * starting `//` or holding `\` (another host to a browser), or anything but printable ASCII.
 */
export function canonicalSpelling(target: string): string | null {
  const cut = target.indexOf('?')
  const path = cut === -1 ? target : target.slice(0, cut)
  if (!path.includes('%')) return null
  const canonical = path.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) => {
    const char = String.fromCharCode(parseInt(hex, 16))
    return UNRESERVED.test(char) ? char : `%${hex.toUpperCase()}`
  })
  if (canonical === path || !canonical.startsWith('/') || canonical.startsWith('//') || canonical.includes('\\')) {
    return null
  }
  if (/(^|\/)\.\.?(\/|$)/.test(canonical)) return null
  const spelled = cut === -1 ? canonical : `${canonical}${target.slice(cut)}`
  return /^[\x21-\x7e]*$/.test(spelled) ? spelled : null
}
