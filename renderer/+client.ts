// Browser-only start-up code (https://vike.dev/client).
import { installQueryOnlyNavigation, installSmoothHashScroll } from './navigation'

// A lazy chunk that fails to load (usually a redeploy removed it) reloads the page once.
// Never preventDefault(): Vike then gets `undefined` for the module and shows a 500 page.
const RELOAD_KEY = 'vitrina:reloaded-after-preload-error'
window.addEventListener('vite:preloadError', () => {
  // At most one reload a minute: a chunk that stays missing must not cause a reload loop.
  const last = Number(sessionStorage.getItem(RELOAD_KEY) ?? 0)
  if (Date.now() - last < 60_000) return
  sessionStorage.setItem(RELOAD_KEY, String(Date.now()))
  location.reload()
})

installQueryOnlyNavigation()
installSmoothHashScroll()
