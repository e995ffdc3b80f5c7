// Navigation details of the public pages (full page loads; the browser restores scroll on back).
import { isDeclaredName, QUERY_META_NAME } from '../src/site/query-names'

/** The query parameters this page reads, as its head declares them (renderer/+Head.tsx). */
function declaredQuery(): string[] {
  const content = document.querySelector(`meta[name="${QUERY_META_NAME}"]`)?.getAttribute('content') ?? ''
  return content.split(/\s+/).filter(Boolean)
}

/** The names whose values differ between two query strings. */
function changedNames(a: URLSearchParams, b: URLSearchParams): Set<string> {
  const names = new Set([...a.keys(), ...b.keys()])
  return new Set([...names].filter((name) => a.getAll(name).join('\n') !== b.getAll(name).join('\n')))
}

/**
 * A link to the same path with another query string changes the address without a page load
 * (the page's data steps are skipped) when none of the parameters it changes is one the page
 * reads; a link changing the page's own parameters (a section's page, order or filter) loads the
 * page it names.
 */
export function installQueryOnlyNavigation() {
  window.addEventListener(
    'click',
    (event) => {
      if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
      const link = (event.target as Element | null)?.closest?.('a[href]') as HTMLAnchorElement | null
      if (!link || link.target || link.hasAttribute('download')) return
      const url = new URL(link.href, location.href)
      if (url.origin !== location.origin || url.pathname !== location.pathname) return
      if (url.search === location.search || url.hash) return
      const declared = declaredQuery()
      const changed = changedNames(url.searchParams, new URLSearchParams(location.search))
      if ([...changed].some((name) => isDeclaredName(declared, name))) return
      event.preventDefault()
      event.stopPropagation()
      history.pushState(null, '', url.pathname + url.search)
    },
    { capture: true },
  )
}

/** An anchor to glide to once the next page has loaded (sessionStorage). */
const GLIDE_KEY = 'vitrina:glide-to'

/**
 * Anchors scroll smoothly, as the spec asks (the browser jumps instantly). A same-page anchor is
 * scrolled to here. A link to an anchor on another page (`/#advantages`) loads that page at its
 * top and glides to the anchor from there: the anchor waits in sessionStorage meanwhile.
 */
export function installSmoothHashScroll() {
  const reduced = window.matchMedia('(prefers-reduced-motion: reduce)')
  glideToStoredAnchor()
  document.addEventListener(
    'click',
    (event) => {
      if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
      const link = (event.target as Element | null)?.closest?.('a[href*="#"]') as HTMLAnchorElement | null
      if (!link || link.target || reduced.matches) return
      const url = new URL(link.href, location.href)
      if (url.origin !== location.origin || !url.hash) return
      if (url.pathname !== location.pathname || url.search !== location.search) {
        try {
          sessionStorage.setItem(GLIDE_KEY, url.hash)
        } catch {
          return // no storage: the browser's own jump to the anchor
        }
        event.preventDefault()
        location.assign(url.pathname + url.search)
        return
      }
      event.preventDefault()
      event.stopImmediatePropagation()
      history.pushState(null, '', url.hash)
      document
        .getElementById(decodeURIComponent(url.hash.slice(1)))
        ?.scrollIntoView({ behavior: 'smooth', block: 'start' })
    },
    { capture: true },
  )
}

function glideToStoredAnchor() {
  let hash: string | null = null
  try {
    hash = sessionStorage.getItem(GLIDE_KEY)
    sessionStorage.removeItem(GLIDE_KEY)
  } catch {
    return
  }
  if (hash === null) return
  history.replaceState(history.state, '', location.pathname + location.search + hash)
  document.getElementById(decodeURIComponent(hash.slice(1)))?.scrollIntoView({ behavior: 'smooth', block: 'start' })
}
