// SQLite held by another writer past the busy timeout: the lead waits in the journal, the visitor
// is answered with success, and the lead is stored once the lock is gone, exactly once.
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SQLite } from '../../server/data/sqlite-driver'
import { buildTestApp, type TestApp } from '../helpers/build-test-app'
import { waitFor } from '../helpers/receivers'

let t: TestApp

beforeAll(async () => {
  t = await buildTestApp({ LEAD_RATE_LIMIT: '0', SEED_DEMO: 'false' })
})
afterAll(async () => {
  await t?.close()
})

describe('a lead while SQLite is locked by another connection', () => {
  it('is journaled, answered with success, and stored once when the lock is released', async () => {
    const other = new SQLite(path.join(t.dir, 'site.db'))
    other.exec('BEGIN EXCLUSIVE') // another process writing for longer than the 5 s busy timeout
    let released = false
    try {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/feedback',
        headers: { 'idempotency-key': 'locked-1' },
        payload: { username: 'Вера', phone: '+7 912 345-67-89', email: 'vera@example.ru', consent: true },
      })
      expect(res.statusCode).toBe(202)
      other.exec('ROLLBACK')
      released = true
      const stored = () =>
        t.app.db.selectFrom('feedback').select(['email']).where('idempotencyKey', '=', 'locked-1').execute()
      await waitFor(async () => (await stored()).length === 1, 'the journaled lead stored')
      await new Promise((resolve) => setTimeout(resolve, 2500)) // one more drain period: still one
      expect(await stored()).toHaveLength(1)
    } finally {
      if (!released) other.exec('ROLLBACK')
      other.close()
    }
  }, 30_000)
})
