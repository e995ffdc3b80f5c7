// The set-up every browser test file shares: the production build, one server and one Chromium for
// the file, started before its tests and closed after them.
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll } from 'vitest'
import { launchBrowser } from './browser'
import { ensureBuild, startProdServer, type ProdServer } from './prod-server'

export interface BrowserSuite {
  readonly server: ProdServer
  readonly browser: Browser
}

/**
 * Registers the file's `beforeAll`/`afterAll` and returns the suite, filled in once they ran.
 * `start` picks the server: the plain production server by default, the back office's
 * (`startAdminServer`) or one with its own environment.
 */
export function browserSuite(start: () => Promise<ProdServer> = () => startProdServer()): BrowserSuite {
  const suite: { server?: ProdServer; browser?: Browser } = {}
  beforeAll(async () => {
    ensureBuild()
    suite.server = await start()
    suite.browser = await launchBrowser()
  })
  afterAll(async () => {
    await suite.browser?.close()
    await suite.server?.stop()
    suite.server?.cleanup()
  })
  return {
    get server() {
      if (!suite.server) throw new Error('The server starts in beforeAll')
      return suite.server
    },
    get browser() {
      if (!suite.browser) throw new Error('Chromium starts in beforeAll')
      return suite.browser
    },
  }
}
