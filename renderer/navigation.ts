// Client navigation details Vike leaves to the app.

/**
 * A link to the same path with another query string changes the address without a
 * navigation: the page's data steps are skipped. Runs in the capture phase so
 * Vike's own link handler (bubbling, on document) never sees the click.
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

/** Same-page anchors scroll smoothly (Vike and the browser jump instantly). */
export function installSmoothHashScroll() {
  const reduced = window.matchMedia('(prefers-reduced-motion: reduce)')
  document.addEventListener(
    'click',
    (event) => {
      const link = (event.target as Element | null)?.closest?.('a[href*="#"]') as HTMLAnchorElement | null
      if (!link || reduced.matches) return
      const url = new URL(link.href, location.href)
      if (url.pathname !== location.pathname || url.search !== location.search || !url.hash) return
      const target = document.getElementById(decodeURIComponent(url.hash.slice(1)))
      if (!target) return
      event.preventDefault()
      event.stopImmediatePropagation()
      history.pushState(null, '', url.hash)
      target.scrollIntoView({ behavior: 'smooth', block: 'start' })
    },
    { capture: true },
  )
}
