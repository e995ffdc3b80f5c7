// How many public products a section shows (server/site/product-counts.ts), on SQLite and
// PostgreSQL: the route map holds no products, so a section's count is read from its index when a
// page asks and kept until a write names that section (childrenTag). A write elsewhere keeps it; a
// change of every page, or a place change that names no section, forgets every count.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ProductCounts } from '../../server/site/product-counts'
import { childrenTag, placeTag, recordTag, TREE_TAG } from '../../src/site/page-tags'
import { recordIdAt, type TestApp } from '../helpers/build-test-app'
import { DIALECTS } from '../helpers/dialects'
import { sendRecord } from '../helpers/multipart'
import { ADMIN_TOKEN, AUTH } from '../api/helpers'

for (const dialect of DIALECTS) {
  describe.runIf(dialect.available)(`a section's product count on ${dialect.name}`, () => {
    let t: TestApp
    let tools: number
    let garden: number
    beforeAll(async () => {
      t = await dialect.build({ ADMIN_TOKEN })
      tools = await recordIdAt(t.app.db, '/structure/power-tools/')
      garden = await recordIdAt(t.app.db, '/structure/garden/')
    })
    afterAll(() => t?.close())

    /** The public products under a section, counted by hand. */
    const publicUnder = async (sectionId: number) =>
      (
        await t.app.db
          .selectFrom('structure')
          .select('id')
          .where('parentId', '=', sectionId)
          .where('typeId', '=', 'product')
          .where('published', '=', 1)
          .where('visible', '=', 1)
          .where((eb) => eb.or([eb('status', 'is', null), eb('status', 'not in', [404, 410])]))
          .execute()
      ).length

    /** Hides one of the section's public products straight in the database (no write door: no forget). */
    const hideOne = async (sectionId: number) => {
      const { id } = await t.app.db
        .selectFrom('structure')
        .select('id')
        .where('parentId', '=', sectionId)
        .where('typeId', '=', 'product')
        .where('published', '=', 1)
        .orderBy('id')
        .executeTakeFirstOrThrow()
      await t.app.db.updateTable('structure').set({ published: 0 }).where('id', '=', id).execute()
      return id
    }
    const show = (id: number) => t.app.db.updateTable('structure').set({ published: 1 }).where('id', '=', id).execute()

    it('counts each section’s public products, and no other record under it', async () => {
      const counts = new ProductCounts(t.app.db)
      const known = await counts.of([tools, garden])
      expect(known.get(tools)).toBe(await publicUnder(tools))
      expect(known.get(garden)).toBe(await publicUnder(garden))
      expect(known.get(tools)).toBeGreaterThan(0)
      // A record with no products under it counts 0, not missing.
      const home = await recordIdAt(t.app.db, '/')
      expect((await counts.of([home])).get(home)).toBe(0)
    })

    it('keeps a count until a write names its section, and only that one', async () => {
      const counts = new ProductCounts(t.app.db)
      const before = await counts.of([tools, garden])
      const hiddenTool = await hideOne(tools)
      const hiddenPlant = await hideOne(garden)
      try {
        // Nothing named either section yet: the kept counts.
        expect(await counts.of([tools, garden])).toEqual(before)
        // A write that moved a product of «Электроинструмент» (as page-changes.ts names it).
        counts.forget(new Set([recordTag(hiddenTool), childrenTag(tools), TREE_TAG, placeTag(hiddenTool)]))
        const after = await counts.of([tools, garden])
        expect(after.get(tools)).toBe(before.get(tools)! - 1)
        expect(after.get(garden)).toBe(before.get(garden))
        // A price alone names no section's products.
        counts.forget(new Set([recordTag(hiddenPlant)]))
        expect((await counts.of([garden])).get(garden)).toBe(before.get(garden))
        // A log row that says a place changed but not where: every count is read again.
        counts.forget(new Set([TREE_TAG]))
        expect((await counts.of([garden])).get(garden)).toBe(before.get(garden)! - 1)
      } finally {
        await show(hiddenTool)
        await show(hiddenPlant)
      }
    })

    it('reads every count again after a change of every page', async () => {
      const counts = new ProductCounts(t.app.db)
      const before = await counts.of([tools])
      const hidden = await hideOne(tools)
      try {
        counts.forget('every page')
        expect((await counts.of([tools])).get(tools)).toBe(before.get(tools)! - 1)
      } finally {
        await show(hidden)
      }
    })

    it('shows the new count on the section’s page after a product is withdrawn through the back office', async () => {
      const countShown = async () => {
        const res = await t.app.inject({ method: 'GET', url: '/structure/' })
        expect(res.statusCode).toBe(200)
        // The tile of «Электроинструмент» with its count of products.
        const tile = res.body.slice(res.body.indexOf('href="/structure/power-tools/"'))
        return Number(/Товаров: (?:<!-- -->)?(\d+)/.exec(tile)?.[1])
      }
      const before = await countShown()
      expect(before).toBe(await publicUnder(tools))
      const { id } = await t.app.db
        .selectFrom('structure')
        .select('id')
        .where('parentId', '=', tools)
        .where('typeId', '=', 'product')
        .orderBy('id')
        .executeTakeFirstOrThrow()
      const res = await sendRecord(t.app, AUTH, 'PATCH', '/api/structure', { id, published: false })
      expect(res.statusCode).toBe(200)
      expect(await countShown()).toBe(before - 1)
    })
  })
}
