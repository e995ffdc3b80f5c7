// Warm after a large write (issue 34 item 3), on both databases: once a write that dropped many
// kept pages has gone quiet, the most-visited of them (PAGE_WARM_PAGES) are rendered again in the
// background, so their first visitor after the write finds them in the page cache, showing what
// the write made; the less visited ones wait for their visitors, and a small write warms nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_TOKEN, AUTH } from '../api/helpers'
import { recordIdAt, type TestApp } from '../helpers/build-test-app'
import { DIALECTS } from '../helpers/dialects'
import { sendRecord } from '../helpers/multipart'

/** The three most-visited pages, most-visited first */
const POPULAR = ['/', '/structure/', '/structure/garden/']
/** Visited once each: enough pages for a write that drops them all to be a large one */
const VISITED_ONCE = [
  '/structure/power-tools/',
  '/structure/hand-tools/',
  '/structure/power-tools/angle-grinder',
  '/structure/power-tools/screwdriver',
  '/structure/power-tools/jigsaw',
  '/structure/garden/trimmer',
  '/structure/garden/lawn-mower',
  '/structure/garden/chainsaw',
  '/structure/hand-tools/hammer',
  '/structure/hand-tools/wrench-set',
  '/politika',
]

for (const dialect of DIALECTS) {
  describe.runIf(dialect.available)(`pages warmed after a large write on ${dialect.name}`, () => {
    let t: TestApp
    beforeAll(async () => {
      t = await dialect.build({ ADMIN_TOKEN, PAGE_WARM_PAGES: '3' }, { pageWarmQuietMs: 50 })
    })
    afterAll(async () => {
      await t?.close()
    })

    const get = (url: string) => t.app.inject({ url, headers: { 'user-agent': 'Mozilla/5.0 test' } })
    const cacheOf = async (url: string) => String((await get(url)).headers['x-vitrina-cache'])
    const idAt = async (url: string) => recordIdAt(t.app.db, url)
    const patch = async (data: unknown) => {
      const res = await sendRecord(t.app, AUTH, 'PATCH', '/api/structure', data)
      expect(res.statusCode, res.body).toBe(200)
    }

    it('renders the most-visited pages again after a write that changed every page, and not the rest', async () => {
      for (const [i, url] of POPULAR.entries()) for (let n = 0; n < 6 - i; n++) await get(url)
      for (const url of VISITED_ONCE) await get(url)
      expect(await cacheOf('/')).toBe('hit')

      // A section renamed: the menu of every page changes.
      await patch({ id: await idAt('/structure/garden/'), title: 'Сад и огород' })
      await t.app.pages.warmed()

      for (const url of POPULAR) expect(await cacheOf(url), url).toBe('hit')
      expect((await get('/')).body).toContain('Сад и огород')
      expect(await cacheOf('/structure/power-tools/')).toBe('miss')
    })

    it('leaves the pages of a small write to their visitors', async () => {
      const url = '/structure/garden/trimmer'
      for (let n = 0; n < 10; n++) await get(url)
      await patch({ id: await idAt(url), title: 'Триммер сетевой' })
      await t.app.pages.warmed()
      expect(await cacheOf(url)).toBe('miss')
      expect((await get(url)).body).toContain('Триммер сетевой')
    })
  })
}
