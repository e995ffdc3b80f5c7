// A rendering of the catalogue's page reads its data with one call of the content service, the
// page and the site of its header and footer together (content.pageOf), on Vike's path
// (pages/cms/+data.ts, with +onCreatePageContext leaving the site to it) and on the direct path
// alike (issue #43, item 2; docs/decisions/045-one-call-and-light-cards.md). Counted on the
// service itself, per request, with no page cache: a second call (a getSite() beside pageOf(), a
// second pageOf()) fails here.
import { afterAll, beforeAll, describe, expect, it, vi, type MockInstance } from 'vitest'
import { buildApp, type App } from '../../server/app'
import type { TestApp } from '../helpers/build-test-app'
import { DIALECTS } from '../helpers/dialects'

const PAGES = [
  '/',
  '/structure/',
  '/structure/power-tools/',
  '/structure/power-tools/?sort=price',
  '/structure/power-tools/angle-grinder',
  '/politika',
]

interface Counted {
  readonly pageOf: MockInstance
  readonly getSite: MockInstance
}

/** Spies on the two content calls a page may make, passing each call through. */
function count(app: Pick<App, 'content'>): Counted {
  return { pageOf: vi.spyOn(app.content, 'pageOf'), getSite: vi.spyOn(app.content, 'getSite') }
}

/** The content calls one request made, by name. */
async function callsOf(app: Pick<App, 'inject'>, counted: Counted, url: string) {
  counted.pageOf.mockClear()
  counted.getSite.mockClear()
  const res = await app.inject({ url })
  return {
    status: res.statusCode,
    pageOf: counted.pageOf.mock.calls.length,
    getSite: counted.getSite.mock.calls.length,
  }
}

for (const dialect of DIALECTS) {
  describe.runIf(dialect.available)(`one content call per page rendering on ${dialect.name}`, () => {
    let vike: TestApp
    let direct: App
    let onVike: Counted
    let onDirect: Counted
    beforeAll(async () => {
      vike = await dialect.build({ PAGE_CACHE_MB: '0' }, { directRender: false })
      direct = await buildApp(vike.config, { directRender: true })
      await direct.ready()
      onVike = count(vike.app)
      onDirect = count(direct)
    })
    afterAll(async () => {
      await direct?.close()
      await vike?.close()
    })

    it('reads a page and its site with one pageOf() through Vike', async () => {
      for (const url of PAGES) {
        expect(await callsOf(vike.app, onVike, url), url).toEqual({ status: 200, pageOf: 1, getSite: 0 })
      }
      expect(vike.app.pages.renderings.direct).toBe(0)
    })

    it('reads a page and its site with one pageOf() on the direct path', async () => {
      for (const url of PAGES) {
        // The first answer of the app is Vike's (it learns the page from it), every later one the path's.
        expect(await callsOf(direct, onDirect, url), url).toEqual({ status: 200, pageOf: 1, getSite: 0 })
        expect(await callsOf(direct, onDirect, url), url).toEqual({ status: 200, pageOf: 1, getSite: 0 })
      }
      expect(direct.pages.renderings).toEqual({ vike: 1, direct: PAGES.length * 2 - 1 })
    })

    it('gives the site to the other pages once, and to the page a missing URL shows', async () => {
      expect(await callsOf(vike.app, onVike, '/zayavka')).toEqual({ status: 200, pageOf: 0, getSite: 1 })
      // The catch-all's one call finds nothing; Vike's error page is a page of its own, with its site.
      expect(await callsOf(vike.app, onVike, '/no-such-page')).toEqual({ status: 404, pageOf: 1, getSite: 1 })
    })
  })
}
