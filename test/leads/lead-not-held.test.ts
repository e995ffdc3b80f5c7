// A lead never waits for the site's pages to take in another process's writes (issue 43): during a
// 1C exchange the importing process writes a step of products every second. The route map holds
// the tree, not the products, so such a step leaves every process's map as it is; the lead's intake
// reads its origin (the product page it came from) by its row, and the consent text's page from the
// map at hand, never one being brought up to date. A lead waited out the map's patches for up to
// 257 ms at 110,000 products when the map held every product.
import pg from 'pg'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { placeTag, recordTag, TREE_TAG } from '../../src/site/page-tags'
import { recordIdAt, type TestApp } from '../helpers/build-test-app'
import { DIALECTS } from '../helpers/dialects'

const ENV = { LEAD_RATE_LIMIT: '0', LEAD_MIN_FILL_SECONDS: '0' }
const lead = (email: string) => ({ username: 'Иван Петров', phone: '8 999 123-45-67', email, consent: true })

/** Another process's content write, as an import's step makes it: a product renamed, the version bumped. */
async function writeAsAnotherProcess(t: TestApp, id: number, title: string): Promise<void> {
  await t.app.db.transaction().execute(async (trx) => {
    await trx.updateTable('structure').set({ title }).where('id', '=', id).execute()
    const { version } = await trx
      .updateTable('contentVersion')
      .set((eb) => ({ version: eb('version', '+', 1) }))
      .where('id', '=', 1)
      .returning('version')
      .executeTakeFirstOrThrow()
    await trx
      .insertInto('contentChange')
      .values({ version, pages: JSON.stringify([recordTag(id), placeTag(id), TREE_TAG]) })
      .execute()
  })
}

for (const dialect of DIALECTS) {
  describe.runIf(dialect.available)(`a lead and the route map on ${dialect.name}`, () => {
    let t: TestApp
    beforeAll(async () => {
      t = await dialect.build(ENV)
    })
    afterAll(() => t?.close())

    it('keeps the map through another process’s product write, and the lead names the product as it is', async () => {
      const grinder = await recordIdAt(t.app.db, '/structure/power-tools/angle-grinder')
      const map = await t.app.content.routes()
      await writeAsAnotherProcess(t, grinder, 'Болгарка, новое название')
      // The version check runs at most once a second; then the write is read in, and the tree it
      // left as it was is the same map: nothing reloaded, nothing patched.
      await new Promise((resolve) => setTimeout(resolve, 1_100))
      expect(await t.app.content.routes()).toBe(map)
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/feedback',
        payload: lead('renamed@example.ru'),
        headers: { referer: 'https://shop.example.ru/structure/power-tools/angle-grinder' },
      })
      expect(res.statusCode).toBe(201)
      const stored = await sql<{
        productTitle: string | null
      }>`select "productTitle" from feedback where email = 'renamed@example.ru'`.execute(t.app.db)
      expect(stored.rows[0]?.productTitle).toBe('Болгарка, новое название')
    })

    it('takes the map before a write that changed every page while the new one loads', async () => {
      const before = await t.app.content.routes()
      t.app.content.invalidate('every page')
      expect(await t.app.content.routes('latest')).toBe(before)
      const reloaded = await t.app.content.routes()
      expect(reloaded).not.toBe(before)
      expect(await t.app.content.routes('latest')).toBe(reloaded)
    })
  })
}

const postgres = DIALECTS.find((d) => d.name === 'PostgreSQL')!
describe.runIf(postgres.available)('a lead while the route map cannot be brought up to date', () => {
  let t: TestApp
  let other: pg.Client
  beforeAll(async () => {
    t = await postgres.build(ENV)
    other = new pg.Client({ connectionString: (t.config.database as { url: string }).url })
    await other.connect()
  })
  afterAll(async () => {
    await other?.end()
    await t?.close()
  })

  it('is stored and answered 201 while the write log cannot be read', async () => {
    const grinder = await recordIdAt(t.app.db, '/structure/power-tools/angle-grinder')
    await t.app.content.routes()
    await writeAsAnotherProcess(t, grinder, 'Болгарка с новым именем')
    await new Promise((resolve) => setTimeout(resolve, 1_100))
    // Another session holds the content write log: what the other process changed cannot be read,
    // so the route map cannot be brought up to date until it lets go.
    await other.query('BEGIN')
    await other.query('LOCK TABLE "contentChange" IN ACCESS EXCLUSIVE MODE')
    let released = false
    try {
      const answer = t.app.inject({
        method: 'POST',
        url: '/api/feedback',
        payload: lead('held@example.ru'),
        headers: { referer: 'https://shop.example.ru/structure/power-tools/angle-grinder' },
      })
      const outcome = await Promise.race([
        answer.then((res) => ({ status: res.statusCode })),
        new Promise<'held'>((resolve) => setTimeout(() => resolve('held'), 3_000)),
      ])
      expect(outcome, 'the lead waited for the route map').toEqual({ status: 201 })
      const stored = await sql<{
        productTitle: string | null
      }>`select "productTitle" from feedback where email = 'held@example.ru'`.execute(t.app.db)
      // Its origin is the product as its row is now: the map at hand is not asked for it.
      expect(stored.rows[0]?.productTitle).toBe('Болгарка с новым именем')
      await other.query('ROLLBACK')
      released = true
      // Once the log can be read, pages show the write.
      const page = await t.app.inject({ method: 'GET', url: '/structure/power-tools/angle-grinder' })
      expect(page.body).toContain('Болгарка с новым именем')
    } finally {
      if (!released) await other.query('ROLLBACK')
    }
  })
})
