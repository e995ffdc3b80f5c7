// The browser's code for every public page (https://vike.dev/client). The pages are HTML only
// (`clientHooks: false` in +config.ts): no Vike client runtime, no client routing; the
// interactive parts are islands (docs/decisions/021-islands.md).
import { hydrateIslands, readContext } from '../src/islands/hydrate'
import { rememberVisitTags } from '../src/lead/lead-source'
import { reloadOnStaleChunk } from '../src/ui/stale-chunk-reload'
import { ISLANDS } from './islands'
import { installQueryOnlyNavigation, installSmoothHashScroll } from './navigation'

reloadOnStaleChunk()
// Only a site with a counter has the cookie notice; its code is a chunk of its own.
const { lead, cookie } = readContext()
if (cookie && lead.metrikaId !== null) {
  const counter = lead.metrikaId
  void import('../src/site/cookie-notice').then(({ installCookieNotice }) => installCookieNotice(counter, cookie))
}
// The landing page of the visit: its advertising tags go with a lead sent later.
rememberVisitTags(location.search)
installQueryOnlyNavigation()
installSmoothHashScroll()
// Hydration waits for a task of its own: the browser has just evaluated React, and a tap that
// arrives meanwhile is handled between the two tasks instead of after one longer task.
setTimeout(() => void hydrateIslands(ISLANDS), 0)
