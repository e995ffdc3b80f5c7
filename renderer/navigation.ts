// Navigation details of the public pages (full page loads; the browser restores scroll on back).

/**
 * A link to the same path with another query string changes the address without a
 * page load: the page's data steps are skipped.
 */
export function installQueryOnlyNavigation() {
  window.addEventListener(
    'click',
    (event) => {
      if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
      const link = (event.target as Element | null)?.closest?.('a[href]') as HTMLAnchorElement | null
      if (!link || link.target || link.hasAttribute('download') || link.hasAttribute('data-native')) return
      const url = new URL(link.href, location.href)
      if (url.origin !== location.origin || url.pathname !== location.pathname) return
      if (url.search === location.search || url.hash) return
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
