// Browser-only start-up code (https://vike.dev/client).
import { installQueryOnlyNavigation, installSmoothHashScroll } from './navigation'

// A lazy chunk that fails to load (usually a redeploy removed it) reloads the page once.
// Never preventDefault(): Vike then gets `undefined` for the module and shows a 500 page.
window.addEventListener('vite:preloadError', () => {
  const key = 'vitrina:reloaded-after-preload-error'
  if (!sessionStorage.getItem(key)) {
    sessionStorage.setItem(key, '1')
    location.reload()
  }
})
window.addEventListener('load', () => sessionStorage.removeItem('vitrina:reloaded-after-preload-error'))

installQueryOnlyNavigation()
installSmoothHashScroll()
