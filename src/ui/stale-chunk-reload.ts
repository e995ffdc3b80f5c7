const RELOAD_KEY = 'vitrina:reloaded-after-preload-error'

/**
 * A lazy chunk that fails to load (usually a redeploy removed it) reloads the page once; the
 * event is not prevented, so the import still fails for its caller. At most one reload a minute:
 * a chunk that stays missing must not cause a reload loop.
 */
export function reloadOnStaleChunk(): void {
  window.addEventListener('vite:preloadError', () => {
    try {
      const last = Number(sessionStorage.getItem(RELOAD_KEY) ?? 0)
      if (Date.now() - last < 60_000) return
      sessionStorage.setItem(RELOAD_KEY, String(Date.now()))
    } catch {
      return // no storage: no way to tell a loop, so no reload
    }
    location.reload()
  })
}
