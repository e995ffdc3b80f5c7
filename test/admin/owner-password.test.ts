// The owner's password store under concurrency, on SQLite and PostgreSQL: two one-time links used
// at the same moment, again and again. Exactly one sets the password each time, the other is
// refused in a way the route answers in Russian (409 or 403), and no attempt fails with a database
// error (PostgreSQL once reported a deadlock here, a 500 for the owner).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { issueSetupLink, readOwnerPassword, setFirstPassword } from '../../server/admin/owner-password'
import type { TestApp } from '../helpers/build-test-app'
import { DIALECTS } from '../helpers/dialects'

for (const dialect of DIALECTS)
  describe.runIf(dialect.available)(`the first password on ${dialect.name}`, () => {
    let t: TestApp
    beforeAll(async () => {
      t = await dialect.build({ ADMIN_TOKEN: '', SEED_DEMO: 'false' })
    })
    afterAll(async () => {
      await t?.close()
    })

    it('is set by exactly one of two links used at once, every time, with no database error', async () => {
      for (let round = 0; round < 25; round++) {
        await t.app.db.deleteFrom('ownerPassword').execute()
        const at = new Date()
        const links = [await issueSetupLink(t.app.db, at), await issueSetupLink(t.app.db, at)]
        const outcomes = await Promise.all(
          links.map((link, i) => setFirstPassword(t.app.db, link, `scrypt$hash-${round}-${i}`, at)),
        )
        expect(outcomes.filter((o) => o === 'set')).toHaveLength(1)
        expect(['already_set', 'invalid_link']).toContain(outcomes.find((o) => o !== 'set'))
        expect(await readOwnerPassword(t.app.db)).toBe(`scrypt$hash-${round}-${outcomes.indexOf('set')}`)
        // Every link printed before is spent with the password.
        expect(await t.app.db.selectFrom('ownerSetupLink').selectAll().execute()).toEqual([])
      }
    })
  })
