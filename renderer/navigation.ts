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

/**
 * Anchors scroll smoothly, as the spec asks (Vike and the browser jump instantly). A same-page
 * anchor is scrolled to here; for an anchor on another page (`/#advantages`), the page's scroll
 * container turns smooth for the navigation, so Vike's own scroll to the target glides too.
 */
export function installSmoothHashScroll() {
  const reduced = window.matchMedia('(prefers-reduced-motion: reduce)')
  document.addEventListener(
    'click',
    (event) => {
      if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
      const link = (event.target as Element | null)?.closest?.('a[href*="#"]') as HTMLAnchorElement | null
      if (!link || link.target || reduced.matches) return
      const url = new URL(link.href, location.href)
      if (url.origin !== location.origin || !url.hash) return
      if (url.pathname !== location.pathname || url.search !== location.search) {
        smoothUntilSettled()
        return
      }
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

function smoothUntilSettled() {
  const root = document.documentElement
  root.style.scrollBehavior = 'smooth'
  let timer = 0
  const reset = () => {
    window.clearTimeout(timer)
    window.removeEventListener('scrollend', reset)
    root.style.scrollBehavior = ''
  }
  // The new page renders, Vike scrolls to the anchor, the glide ends; a cap if it never starts.
  timer = window.setTimeout(reset, 3000)
  window.setTimeout(() => window.addEventListener('scrollend', reset, { once: true }), 100)
}
