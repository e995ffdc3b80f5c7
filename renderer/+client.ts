// The browser's code for every public page (https://vike.dev/client). The pages are HTML only
// (`clientHooks: false` in +config.ts): no Vike client runtime, no client routing; the
// interactive parts are islands (docs/decisions/021-islands.md).
import { hydrateIslands } from '../src/islands/hydrate'
import { COOKIE_NOTICE_ID } from '../src/site/cookie-consent'
import { rememberVisitTags } from '../src/lead/lead-source'
import { reloadOnStaleChunk } from '../src/ui/stale-chunk-reload'
import { ISLANDS } from './islands'
import { installQueryOnlyNavigation, installSmoothHashScroll } from './navigation'

reloadOnStaleChunk()
// Only a site with a counter has the cookie notice; its code is a chunk of its own.
const cookieNotice = document.getElementById(COOKIE_NOTICE_ID)
if (cookieNotice)
  void import('../src/site/cookie-notice').then(({ installCookieNotice }) => installCookieNotice(cookieNotice))
// The landing page of the visit: its advertising tags go with a lead sent later.
rememberVisitTags(location.search)
installQueryOnlyNavigation()
installSmoothHashScroll()
// Hydration waits for a task of its own: the browser has just evaluated React, and a tap that
// arrives meanwhile is handled between the two tasks instead of after one longer task.
setTimeout(() => void hydrateIslands(ISLANDS), 0)
