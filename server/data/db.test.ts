// executeCompiled against a real SQLite database: one compilation, each call's own parameters.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { executeCompiled, openDatabase, type Db } from './db'

let db: Db

beforeEach(async () => {
  db = await openDatabase({ kind: 'sqlite', path: ':memory:', explicit: false })
  await db
    .insertInto('goneUrl')
    .values(['/a', '/b', '/c'].map((urlFull) => ({ urlFull, goneAt: '2026-01-01T00:00:00.000Z' })))
    .execute()
})
afterEach(async () => {
  await db.destroy()
})

const goneAmong = (urls: string[]) =>
  executeCompiled(db, `gone among ${urls.length}`, urls, () =>
    db.selectFrom('goneUrl').select('urlFull').where('urlFull', 'in', urls).orderBy('urlFull'),
  )

describe('executeCompiled', () => {
  it('runs a query compiled once with each call’s own parameters', async () => {
    expect(await goneAmong(['/a', '/x'])).toEqual([{ urlFull: '/a' }])
    expect(await goneAmong(['/b', '/c'])).toEqual([{ urlFull: '/b' }, { urlFull: '/c' }])
    expect(await goneAmong(['/c'])).toEqual([{ urlFull: '/c' }])
  })

  it('refuses parameters that are not the query’s own, in its order', async () => {
    await expect(
      executeCompiled(db, 'wrong order', ['/b', '/a'], () =>
        db.selectFrom('goneUrl').select('urlFull').where('urlFull', 'in', ['/a', '/b']),
      ),
    ).rejects.toThrow(/not the query's/)
  })
})
