// The route map's full load (server/content/route-map-load.ts, issue 43) on SQLite and PostgreSQL.
// The map holds the site's tree, not its catalogue: every section, page and index record, and no
// product but one other records sit under (server/content/route-rows.ts). A tree of 10,000
// sections is read a part at a time and the map built in slices, with the event loop let go
// between them, so the requests a process takes while it reloads (every STRUCTURE_TTL, after a
// section changed) are answered meanwhile, not after it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadRouteMap } from '../../server/content/route-map-load'
import { Slices } from '../../server/content/slices'
import type { TestApp } from '../helpers/build-test-app'
import { generateCatalogue } from '../helpers/catalogue'
import { DIALECTS } from '../helpers/dialects'
import { planOf, statementsOf } from '../helpers/sql-plans'

const SECTIONS = 10_000

for (const dialect of DIALECTS) {
  describe.runIf(dialect.available)(`the route map's load on ${dialect.name}`, () => {
    let t: TestApp
    let sections: readonly { id: number; urlFull: string }[] = []
    beforeAll(async () => {
      t = await dialect.build({})
      sections = (await generateCatalogue(t.app.db, { sections: SECTIONS, products: SECTIONS * 2, slug: 'load' }))
        .sections
    })
    afterAll(() => t?.close())

    const catalogueRoot = () =>
      t.app.db.selectFrom('structure').select('id').where('urlFull', '=', '/structure/').executeTakeFirstOrThrow()

    it('lets the event loop turn while it loads', async () => {
      // Each turn is where a process reads the requests waiting on its sockets and answers them
      // (a lead's intake is a few turns' work at most): a load in one piece turns it not once.
      // With a slice budget of 0 the load lets go at every point where it can, whatever the
      // machine's speed: one such point at least between each query's part.
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
      expect(map.byId.size).toBeGreaterThan(SECTIONS)
      expect(turns, 'event loop turns during the load').toBeGreaterThanOrEqual(SECTIONS / 5_000)
    })

    it('holds every record of the tree in tree order, and no product', async () => {
      const map = await loadRouteMap(t.app.db, Date.now())
      const rows = await t.app.db
        .selectFrom('structure')
        .select(['id', 'urlFull', 'parentId', 'sort', 'typeId'])
        .execute()
      const tree = rows.filter((r) => r.typeId !== 'product')
      expect(rows.length - tree.length).toBeGreaterThanOrEqual(SECTIONS * 2)
      expect(map.byId.size).toBe(tree.length)
      for (const row of tree) expect(map.byUrl.get(row.urlFull)?.id).toBe(row.id)
      expect([...map.byId.values()].filter((e) => e.typeId === 'product')).toEqual([])
      const root = await catalogueRoot()
      const expected = tree
        .filter((r) => r.parentId === root.id)
        .sort((a, b) => a.sort - b.sort || a.id - b.id)
        .map((r) => r.id)
      expect(expected.length).toBeGreaterThan(SECTIONS)
      expect(map.children.get(root.id)?.map((e) => e.id)).toEqual(expected)
    })

    it.runIf(dialect.name === 'SQLite')(
      'reads the tree through the type index, never walking the products’ rows to find it',
      async () => {
        // SQLite keeps no statistics: read in id order with the products filtered out, it walked
        // every product's row (20,000 here, 110,000 in the bench: 98 ms of one statement in the
        // process taking leads). The tree's rows are found by their type, whatever the catalogue.
        const statements = await statementsOf(t.app.db, (db) => loadRouteMap(db, Date.now()))
        const reads = statements.filter((q) => /from "structure"/.test(q.sql))
        expect(reads.length).toBeGreaterThan(SECTIONS / 5_000)
        for (const query of reads) {
          const plan = await planOf(t.app.db, query)
          expect(plan, query.sql).not.toMatch(/SCAN structure|rowid>|rowid<|USING INTEGER PRIMARY KEY \(rowid[<>]/)
          expect(plan, query.sql).toMatch(
            /SEARCH structure USING (INDEX structure_type|INTEGER PRIMARY KEY \(rowid=\?\))/,
          )
        }
      },
    )

    it('holds a product another record sits under, so that record has its parent and its state', async () => {
      const product = await t.app.db
        .selectFrom('structure')
        .select(['id', 'urlFull', 'parentId'])
        .where('parentId', '=', sections[2].id)
        .where('typeId', '=', 'product')
        .executeTakeFirstOrThrow()
      const page = await t.app.db
        .insertInto('structure')
        .values({
          parentId: product.id,
          typeId: 'page',
          title: 'Инструкция',
          urlFull: `${product.urlFull}instrukciya/`,
          sort: 0,
          published: 1,
          status: null,
          visible: 1,
          createdAt: '2026-11-30T00:00:00.000Z',
          updatedAt: '2026-11-30T00:00:00.000Z',
        })
        .returning('id')
        .executeTakeFirstOrThrow()
      await t.app.db.updateTable('structure').set({ status: 410 }).where('id', '=', product.id).execute()
      try {
        const map = await loadRouteMap(t.app.db, Date.now())
        expect(map.byId.get(product.id)?.typeId).toBe('product')
        expect(map.byId.get(page.id)?.parentId).toBe(product.id)
        // The product is withdrawn: the page under it answers as it does.
        expect(map.byId.get(page.id)?.state).toBe('gone')
        // No other product of its section is held.
        expect([...map.byId.values()].filter((e) => e.typeId === 'product').map((e) => e.id)).toEqual([product.id])
      } finally {
        await t.app.db.deleteFrom('structure').where('id', '=', page.id).execute()
        await t.app.db.updateTable('structure').set({ status: null }).where('id', '=', product.id).execute()
      }
    })

    it('keeps the entries a reload finds unchanged, and makes the changed ones anew', async () => {
      // A reload every STRUCTURE_TTL: every entry made anew was garbage at once, and the
      // collection after it held the process taking leads.
      const before = await loadRouteMap(t.app.db, Date.now())
      const [moved, kept] = [sections[3].id, sections[4].id]
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
      const root = await catalogueRoot()
      const section = before.children.get(root.id)![0]
      expect(section.state).toBe('public')
      await t.app.db.updateTable('structure').set({ status: 410 }).where('id', '=', root.id).execute()
      try {
        const after = await loadRouteMap(t.app.db, Date.now(), undefined, before)
        // The section's own row did not change; what its URL answers did.
        expect(after.byId.get(section.id)?.state).toBe('gone')
        expect(before.byId.get(section.id)?.state).toBe('public')
        expect(after.children.get(root.id)).toBeUndefined()
        const fresh = await loadRouteMap(t.app.db, Date.now())
        expect([...after.byId.values()]).toEqual([...fresh.byId.values()])
        expect([...after.children.entries()]).toEqual([...fresh.children.entries()])
      } finally {
        await t.app.db.updateTable('structure').set({ status: null }).where('id', '=', root.id).execute()
      }
    })
  })
}
