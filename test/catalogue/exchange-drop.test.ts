// A session's files and staged items go in short steps (server/catalogue/exchange/exchange-files.ts,
// issue 43): at 110,000 products a session holds 60 MB of parts and 220,000 staged items, and one
// DELETE of them held SQLite's write lock for 270 ms, while a lead on another process waited. Here
// another connection to the same file, as another process, tries to take the write lock without
// waiting while the drop runs: it gets it between the steps, and afterwards nothing is left.
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dropFiles } from '../../server/catalogue/exchange/exchange-files'
import { SQLite } from '../../server/data/sqlite-driver'
import { buildTestApp, type TestApp } from '../helpers/build-test-app'

const SESSION = 'drop-session'
const STAGED = 30_000

describe('dropping an exchange session’s files on SQLite', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await buildTestApp({ SEED_DEMO: 'false' })
    const payload = JSON.stringify({ name: 'Саморез', description: 'x'.repeat(200) })
    for (let from = 0; from < STAGED; from += 2_000) {
      const rows = Array.from({ length: 2_000 }, (_, i) => ({
        sessionId: SESSION,
        file: 'import.xml',
        kind: 'product' as const,
        pos: from + i,
        itemId: `id-${from + i}`,
        payload,
      }))
      await t.app.db.insertInto('exchangeStaged').values(rows).execute()
    }
    for (let seq = 0; seq < 8; seq++) {
      const bytes = Buffer.alloc(1 << 20, seq)
      await t.app.db
        .insertInto('exchangeFile')
        .values({ sessionId: SESSION, name: 'import.xml', seq, size: bytes.length, bytes })
        .execute()
    }
    // Another session's file stays.
    await t.app.db
      .insertInto('exchangeFile')
      .values({ sessionId: 'other', name: 'offers.xml', seq: 0, size: 1, bytes: Buffer.from('x') })
      .execute()
  })
  afterAll(() => t?.close())

  it('lets another process write between its steps, and leaves nothing of the session', async () => {
    const other = new SQLite(path.join(t.dir, 'site.db'))
    other.pragma('busy_timeout = 0')
    let dropping = true
    let tookTheLock = 0
    const tryToWrite = () => {
      if (!dropping) return
      try {
        other.exec('BEGIN IMMEDIATE')
        other.exec('ROLLBACK')
        tookTheLock++
      } catch (error) {
        if ((error as { code?: string }).code !== 'SQLITE_BUSY') throw error
      }
      setTimeout(tryToWrite, 1)
    }
    try {
      setTimeout(tryToWrite, 1)
      await dropFiles(t.app.db, SESSION)
      dropping = false
      expect(tookTheLock, 'writes of another process while the files were dropped').toBeGreaterThan(0)
    } finally {
      dropping = false
      other.close()
    }
    const left = async (table: 'exchangeStaged' | 'exchangeFile') =>
      Number(
        (
          await t.app.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .where('sessionId', '=', SESSION)
            .executeTakeFirstOrThrow()
        ).n,
      )
    expect(await left('exchangeStaged')).toBe(0)
    expect(await left('exchangeFile')).toBe(0)
    const others = await t.app.db.selectFrom('exchangeFile').select('name').where('sessionId', '=', 'other').execute()
    expect(others).toEqual([{ name: 'offers.xml' }])
  })
})
