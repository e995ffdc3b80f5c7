// The route map after a write (server/content/route-map-patch.ts), on both databases: a write that
// changed no record's place (a price) keeps the map; one that moved, renamed, created, hid,
// withdrew or deleted products patches just those records; anything else (a section renamed)
// reloads it. After each the map is the one a full load makes now: every URL, every record's
// state, every list of public children in tree order.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { publicChildren, type RouteMap } from '../../server/content/route-map'
import { loadRouteMap } from '../../server/content/route-map-load'
import { ADMIN_TOKEN, AUTH } from '../api/helpers'
import { recordIdAt, type TestApp } from '../helpers/build-test-app'
import { DIALECTS } from '../helpers/dialects'
import { sendRecord } from '../helpers/multipart'

/** A route map as plain values: entries by id, public children lists by parent, index URLs. */
function shape(map: Pick<RouteMap, 'byId' | 'byUrl' | 'children' | 'indexes'>) {
  return {
    entries: [...map.byId.values()].sort((a, b) => a.id - b.id),
    urls: [...map.byUrl.keys()].sort(),
    children: Object.fromEntries(
      [...map.children.entries()]
        .filter(([, list]) => list.length > 0)
        .map(([parent, list]) => [String(parent), list.map((e) => e.id)]),
    ),
    indexes: map.indexes.map((i) => i.urlFull),
  }
}

/** The map a full load makes now. */
async function freshShape(t: TestApp) {
  return shape(await loadRouteMap(t.app.db, Date.now()))
}

for (const dialect of DIALECTS) {
  describe.runIf(dialect.available)(`the route map after a write on ${dialect.name}`, () => {
    let t: TestApp
    beforeAll(async () => {
      t = await dialect.build({ ADMIN_TOKEN })
    })
    afterAll(async () => {
      await t?.close()
    })

    const idAt = async (url: string) => recordIdAt(t.app.db, url)
    const multipart = (method: 'POST' | 'PATCH', url: string, data: unknown) =>
      sendRecord(t.app, AUTH, method, url, data)

    /** Runs the write; the map after it is the one a full load makes; returns the maps before and after. */
    async function write(name: string, run: () => Promise<{ statusCode: number; body: string }>) {
      const before = await t.app.content.routes()
      const res = await run()
      expect(res.statusCode, `${name}: ${res.body}`).toBeLessThan(300)
      const after = await t.app.content.routes()
      expect(shape(after), name).toEqual(await freshShape(t))
      return { before, after }
    }

    it('keeps the map for a price, and patches product places without reloading', async () => {
      const grinder = await idAt('/structure/power-tools/angle-grinder')
      const price = await write('a price', () =>
        multipart('PATCH', '/api/product', { structureId: grinder, price: 4321 }),
      )
      expect(price.after).toBe(price.before)

      const garden = await idAt('/structure/garden/')
      const created = await write('a create', () =>
        multipart('POST', '/api/structure', {
          parentId: garden,
          typeId: 'product',
          title: 'Грабли веерные',
          urlFull: '/structure/garden/rake',
          sort: -5,
          product: { article: 'ГР-1', price: 900 },
        }),
      )
      // Patched: a new map, but not a load (the index records are the same list).
      expect(created.after).not.toBe(created.before)
      expect(created.after.indexes).toBe(created.before.indexes)
      expect(created.after.children.get(garden)?.[0]?.urlFull).toBe('/structure/garden/rake')

      const rake = await idAt('/structure/garden/rake')
      const hammer = await idAt('/structure/hand-tools/hammer')
      const patched = [
        await write('a rename', () => multipart('PATCH', '/api/structure', { id: rake, title: 'Грабли' })),
        await write('a hide', () => multipart('PATCH', '/api/structure', { id: rake, published: false })),
        await write('a show', () => multipart('PATCH', '/api/structure', { id: rake, published: true })),
        await write('a withdrawal', () => multipart('PATCH', '/api/structure', { id: hammer, status: 410 })),
        await write('a move', () =>
          t.app.inject({
            method: 'POST',
            url: `/api/admin/content/${hammer}/move`,
            headers: AUTH,
            payload: { parentId: garden, keepUrl: false },
          }),
        ),
        await write('an order', () =>
          t.app.inject({
            method: 'POST',
            url: `/api/admin/content/${rake}/order`,
            headers: AUTH,
            payload: { direction: 'down' },
          }),
        ),
        await write('a delete', () =>
          t.app.inject({ method: 'DELETE', url: `/api/structure?id=${rake}`, headers: AUTH }),
        ),
      ]
      for (const { before, after } of patched) expect(after.indexes).toBe(before.indexes)
      const routes = await t.app.content.routes()
      expect(routes.byUrl.has('/structure/garden/rake')).toBe(false)
      expect(routes.byId.get(hammer)?.state).toBe('gone')
    })

    it('appends a product made after its section’s last to the list in place, and keeps what was worked out before', async () => {
      const garden = await idAt('/structure/garden/')
      const before = await t.app.content.routes()
      const list = before.children.get(garden)!
      const shown = publicChildren(before, garden, 'product')
      const count = shown.length
      const appended = await write('a product after the last', () =>
        multipart('POST', '/api/structure', {
          parentId: garden,
          typeId: 'product',
          title: 'Секатор',
          urlFull: '/structure/garden/pruner',
          sort: 100_000,
          product: { article: 'СК-1', price: 1500 },
        }),
      )
      // The same list, one longer: no copy of it (an import's every step would copy every section's).
      expect(appended.after.children.get(garden)).toBe(list)
      expect(list.at(-1)?.urlFull).toBe('/structure/garden/pruner')
      // What the map before worked out is its own copy; the map after works its out anew.
      expect(shown).toHaveLength(count)
      expect(publicChildren(appended.after, garden, 'product')).toHaveLength(count + 1)
      const page = await t.app.inject({ url: '/structure/garden/' })
      expect(page.body).toContain('Секатор')
    })

    it('reloads the map when a section changes', async () => {
      const garden = await idAt('/structure/garden/')
      const renamed = await write('a section renamed', () =>
        multipart('PATCH', '/api/structure', { id: garden, title: 'Сад и огород' }),
      )
      expect(renamed.after.indexes).not.toBe(renamed.before.indexes)
      expect(renamed.after.byId.get(garden)?.title).toBe('Сад и огород')
    })
  })
}
