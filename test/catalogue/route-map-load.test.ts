// The route map's full load (server/content/route-map-load.ts, issue 43) on SQLite and PostgreSQL:
// a catalogue of 12,000 products is read a part at a time and the map built in slices, with the
// event loop let go between them, so the requests a process takes while it reloads (every
// STRUCTURE_TTL, after a section changed) are answered meanwhile, not after it; and the map it makes
// is the catalogue's: every record by id and URL, each section's public products in tree order.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadRouteMap } from '../../server/content/route-map-load'
import { Slices } from '../../server/content/slices'
import type { TestApp } from '../helpers/build-test-app'
import { generateCatalogue } from '../helpers/catalogue'
import { DIALECTS } from '../helpers/dialects'

const PRODUCTS = 12_000

for (const dialect of DIALECTS) {
  describe.runIf(dialect.available)(`the route map's load on ${dialect.name}`, () => {
    let t: TestApp
    let sections: readonly { id: number; urlFull: string }[] = []
    beforeAll(async () => {
      t = await dialect.build({})
      sections = (await generateCatalogue(t.app.db, { sections: 6, products: PRODUCTS, slug: 'load' })).sections
    })
    afterAll(() => t?.close())

    it('lets the event loop turn while it loads', async () => {
      // Each turn is where a process reads the requests waiting on its sockets and answers them
      // (a lead's intake is a few turns' work at most): a load in one piece turns it not once.
      // With a slice budget of 0 the load lets go at every point where it can, whatever the
      // machine's speed (with the 10 ms budget a fast machine loads 12,000 rows in two slices):
      // one such point at least between each query's part.
      let loading = true
      let turns = 0
      const spin = () => {
        if (!loading) return
        turns++
        setImmediate(spin)
      }
      setImmediate(spin)
      const map = await loadRouteMap(t.app.db, Date.now(), new Slices(0))
      loading = false
      expect(map.byId.size).toBeGreaterThan(PRODUCTS)
      expect(turns, 'event loop turns during the load').toBeGreaterThanOrEqual(PRODUCTS / 5_000)
    })

    it('holds every record, and each section’s public products in tree order', async () => {
      const map = await loadRouteMap(t.app.db, Date.now())
      const rows = await t.app.db.selectFrom('structure').select(['id', 'urlFull', 'parentId', 'sort']).execute()
      expect(map.byId.size).toBe(rows.length)
      for (const row of rows) expect(map.byUrl.get(row.urlFull)?.id).toBe(row.id)
      for (const section of sections) {
        const expected = rows
          .filter((r) => r.parentId === section.id)
          .sort((a, b) => a.sort - b.sort || a.id - b.id)
          .map((r) => r.id)
        expect(expected.length).toBeGreaterThan(0)
        expect(map.children.get(section.id)?.map((e) => e.id)).toEqual(expected)
      }
    })

    it('keeps the entries a reload finds unchanged, and makes the changed ones anew', async () => {
      // A reload every STRUCTURE_TTL: 110,000 entries made anew were garbage at once, and the
      // collection after it held the process taking leads.
      const before = await loadRouteMap(t.app.db, Date.now())
      const [moved, kept] = (
        await t.app.db
          .selectFrom('structure')
          .select('id')
          .where('typeId', '=', 'product')
          .orderBy('id')
          .limit(2)
          .execute()
      ).map((r) => r.id)
      await t.app.db
        .updateTable('structure')
        .set({ title: 'Переименован при перезагрузке' })
        .where('id', '=', moved)
        .execute()
      const after = await loadRouteMap(t.app.db, Date.now(), undefined, before)
      expect(after.byId.get(kept)).toBe(before.byId.get(kept))
      expect(after.byId.get(moved)).not.toBe(before.byId.get(moved))
      expect(after.byId.get(moved)?.title).toBe('Переименован при перезагрузке')
      expect(before.byId.get(moved)?.title).not.toBe('Переименован при перезагрузке')
      const fresh = await loadRouteMap(t.app.db, Date.now())
      expect([...after.byId.values()]).toEqual([...fresh.byId.values()])
    })

    it('keeps the tables of the map before when no record changed, and only its age is new', async () => {
      const before = await loadRouteMap(t.app.db, 1000)
      const after = await loadRouteMap(t.app.db, 2000, undefined, before)
      expect(after.byId).toBe(before.byId)
      expect(after.byUrl).toBe(before.byUrl)
      expect(after.children).toBe(before.children)
      expect(after.loadedAt).toBe(2000)
    })

    it('gives the records under a section withdrawn meanwhile their new state, as a fresh load does', async () => {
      const before = await loadRouteMap(t.app.db, Date.now())
      const section = sections[1]
      const product = before.children.get(section.id)![0]
      expect(product.state).toBe('public')
      await t.app.db.updateTable('structure').set({ status: 410 }).where('id', '=', section.id).execute()
      try {
        const after = await loadRouteMap(t.app.db, Date.now(), undefined, before)
        // The product's own row did not change; what its URL answers did.
        expect(after.byId.get(product.id)?.state).toBe('gone')
        expect(before.byId.get(product.id)?.state).toBe('public')
        expect(after.children.get(section.id)).toBeUndefined()
        const fresh = await loadRouteMap(t.app.db, Date.now())
        expect([...after.byId.values()]).toEqual([...fresh.byId.values()])
        expect([...after.children.entries()]).toEqual([...fresh.children.entries()])
      } finally {
        await t.app.db.updateTable('structure').set({ status: null }).where('id', '=', section.id).execute()
      }
    })
  })
}
