// An import's chunks commit without waiting for the disk (writeTransaction's `durable: false`,
// issue 43); everything else, a lead first, still waits for it. The setting is the connection's, and
// a SQLite process has one connection: these tests check it is back to waiting the moment the
// chunk's transaction ends, committed or rolled back, on both databases.
import fs from 'node:fs'
import path from 'node:path'
import { sql } from 'kysely'
import { afterEach, describe, expect, it } from 'vitest'
import { openDatabase, type Db } from '../../server/data/db'
import { writeTransaction } from '../../server/data/write-transaction'
import { isSqlite } from '../../server/data/sql/dialect'
import { tempDir } from '../helpers/build-test-app'
import { createTestSchema, TEST_DATABASE_URL } from '../helpers/postgres'

const cleanups: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function sqliteDb(): Promise<Db> {
  const dir = tempDir()
  const db = await openDatabase({ kind: 'sqlite', path: path.join(dir, 'site.db'), explicit: false })
  cleanups.push(async () => {
    await db.destroy()
    fs.rmSync(dir, { recursive: true, force: true })
  })
  return db
}

async function postgresDb(): Promise<Db> {
  const schema = await createTestSchema()
  const db = await openDatabase({ kind: 'postgres', url: schema.url, waitMs: 0 })
  cleanups.push(async () => {
    await db.destroy()
    await schema.drop()
  })
  return db
}

/** Whether a commit on this connection now waits for the disk: SQLite FULL (2), PostgreSQL on. */
async function waitsForDisk(db: Db | Parameters<Parameters<typeof writeTransaction>[1]>[0]): Promise<string> {
  if (isSqlite(db as Db)) {
    const { rows } = await sql<{ synchronous: number }>`PRAGMA synchronous`.execute(db)
    return ({ 1: 'normal', 2: 'full' } as Record<number, string>)[rows[0].synchronous] ?? String(rows[0].synchronous)
  }
  const { rows } = await sql<{ synchronous_commit: string }>`SHOW synchronous_commit`.execute(db)
  return rows[0].synchronous_commit
}

const goneAt = '2026-11-30T12:00:00.000Z'

describe.each([
  ['SQLite', sqliteDb, { durable: 'full', chunk: 'normal' }],
  ...(TEST_DATABASE_URL ? [['PostgreSQL', postgresDb, { durable: 'on', chunk: 'off' }] as const] : []),
] as const)('%s: an import chunk’s commit', (_name, open, expected) => {
  it('does not wait for the disk, and the next write on the connection does again', async () => {
    const db = await open()
    expect(await waitsForDisk(db)).toBe(expected.durable)
    const inside = await writeTransaction(
      db,
      async (trx) => {
        await trx.insertInto('goneUrl').values({ urlFull: '/chunk', goneAt }).execute()
        return waitsForDisk(trx)
      },
      { durable: false },
    )
    expect(inside).toBe(expected.chunk)
    expect(await waitsForDisk(db)).toBe(expected.durable)
    // A lead's kind of write: the default is durable, inside the transaction too.
    const lead = await writeTransaction(db, async (trx) => {
      await trx.insertInto('goneUrl').values({ urlFull: '/lead', goneAt }).execute()
      return waitsForDisk(trx)
    })
    expect(lead).toBe(expected.durable)
    const rows = await db.selectFrom('goneUrl').select('urlFull').orderBy('urlFull').execute()
    expect(rows.map((r) => r.urlFull)).toEqual(['/chunk', '/lead'])
  })

  it('waits for the disk again after a chunk that failed, and leaves nothing of it', async () => {
    const db = await open()
    await expect(
      writeTransaction(
        db,
        async (trx) => {
          await trx.insertInto('goneUrl').values({ urlFull: '/half', goneAt }).execute()
          throw new Error('the chunk failed')
        },
        { durable: false },
      ),
    ).rejects.toThrow('the chunk failed')
    expect(await waitsForDisk(db)).toBe(expected.durable)
    expect(await db.selectFrom('goneUrl').select('urlFull').execute()).toEqual([])
  })
})
