// SQLite's checkpoints on a thread of the process (server/data/sqlite-checkpoints.ts): a commit of the site
// leaves the log for the thread to copy into the database file, an import's pause waits for that
// copy so the log starts over, and a thread that cannot run leaves SQLite's own checkpoints on.
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { checkpointOffThread } from '../../server/data/sqlite-checkpoints'
import { SQLite, type SQLiteDatabase } from '../../server/data/sqlite-driver'
import { checkpointed, openDatabase, type Db } from '../../server/data/db'
import { writeTransaction } from '../../server/data/write-transaction'
import { tempDir } from '../helpers/build-test-app'

/** Pages of 4 KiB a write of `rows` rows of 3,000 bytes adds: past SQLite's 1,000-page mark */
const ROWS = 1500

const dirs: string[] = []
const open: SQLiteDatabase[] = []
afterEach(() => {
  for (const database of open.splice(0)) if (database.open) database.close()
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true })
})

/** A database file in WAL mode as the site opens it, with a table to fill. */
function walDatabase(): { database: SQLiteDatabase; file: string } {
  const dir = tempDir('vitrina-checkpoints-')
  dirs.push(dir)
  const file = path.join(dir, 'site.db')
  const database = new SQLite(file)
  open.push(database)
  database.pragma('journal_mode = WAL')
  database.pragma('synchronous = FULL')
  database.exec('create table ballast (bytes blob)')
  return { database, file }
}

function fill(database: SQLiteDatabase): void {
  const insert = database.prepare('insert into ballast values (randomblob(3000))')
  database.transaction(() => {
    for (let i = 0; i < ROWS; i++) insert.run()
  })()
}

/** Frames in the log, as a checkpoint that copies nothing new reports them */
const logFrames = (database: SQLiteDatabase) => (database.pragma('wal_checkpoint(PASSIVE)') as { log: number }[])[0].log

describe('checkpoints on a thread of the process', () => {
  it('leaves a long log to the thread instead of copying it in the commit, and the log starts over', async () => {
    const { database, file } = walDatabase()
    // Asked only: a thread that also ran on its own pace could copy between the commit and the look.
    const checkpoints = checkpointOffThread(database, file, { everyMs: 3_600_000 })
    await checkpoints.now()
    const before = fs.statSync(file).size
    fill(database)
    // SQLite's own checkpoint would have copied the 1,500 pages into the file before the commit returned.
    expect(fs.statSync(file).size).toBe(before)
    await checkpoints.now()
    expect(fs.statSync(file).size).toBeGreaterThan(before + ROWS * 3000)
    // Everything copied and no reader on the log: the next write starts it over, not after it.
    database.prepare('insert into ballast values (randomblob(10))').run()
    expect(logFrames(database)).toBeLessThan(10)
  })

  it('checkpoints on its own pace what no one asked for', async () => {
    const { database, file } = walDatabase()
    checkpointOffThread(database, file, { everyMs: 50 })
    const before = fs.statSync(file).size
    fill(database)
    await expect.poll(() => fs.statSync(file).size, { timeout: 5_000 }).toBeGreaterThan(before + ROWS * 3000)
  })

  it('gives the checkpoints back to the commits when the thread cannot run, and keeps no one waiting', async () => {
    const { database, file } = walDatabase()
    const checkpoints = checkpointOffThread(database, file, { driver: path.join(path.dirname(file), 'no-driver.js') })
    expect(database.pragma('wal_autocheckpoint', { simple: true })).toBe(16_000)
    await expect.poll(() => database.pragma('wal_autocheckpoint', { simple: true }), { timeout: 5_000 }).toBe(1000)
    await checkpoints.now()
    const before = fs.statSync(file).size
    fill(database)
    expect(fs.statSync(file).size).toBeGreaterThan(before + ROWS * 3000)
  })

  it.runIf(fs.existsSync('/proc/self/task'))('serves every database of the process from one thread', async () => {
    const threads = () => fs.readdirSync('/proc/self/task').length
    const first = walDatabase()
    await checkpointOffThread(first.database, first.file, { everyMs: 3_600_000 }).now()
    const before = threads()
    const more = Array.from({ length: 6 }, () => walDatabase())
    for (const { database, file } of more) {
      const checkpoints = checkpointOffThread(database, file, { everyMs: 3_600_000 })
      fill(database)
      const size = fs.statSync(file).size
      await checkpoints.now()
      expect(fs.statSync(file).size).toBeGreaterThan(size)
    }
    expect(threads()).toBe(before)
  })

  it('leaves the folder as SQLite alone would once the database is closed: the log copied and gone, nothing after', async () => {
    const { database, file } = walDatabase()
    const checkpoints = checkpointOffThread(database, file, { everyMs: 5 })
    await checkpoints.now()
    fill(database)
    database.close()
    expect(fs.readdirSync(path.dirname(file))).toEqual(['site.db'])
    // The thread's own pace, had it kept its connection, would checkpoint again here.
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(fs.readdirSync(path.dirname(file))).toEqual(['site.db'])
  })

  it('keeps no one waiting once the database is closed', async () => {
    const { database, file } = walDatabase()
    const checkpoints = checkpointOffThread(database, file, { everyMs: 3_600_000 })
    database.close()
    await checkpoints.now()
  })
})

describe('the site’s SQLite connection', () => {
  let db: Db | null = null
  afterEach(async () => {
    await db?.destroy()
    db = null
  })

  it('checkpoints a long log on its thread when an import asks, between two of its transactions', async () => {
    const dir = tempDir('vitrina-checkpoints-')
    dirs.push(dir)
    const file = path.join(dir, 'site.db')
    db = await openDatabase({ kind: 'sqlite', path: file, explicit: true })
    // Its own commits copy the log only past the backstop: the thread does it before.
    const { rows } = await sql<{ wal_autocheckpoint: number }>`PRAGMA wal_autocheckpoint`.execute(db)
    expect(rows[0].wal_autocheckpoint).toBe(16_000)
    await sql`create table ballast (bytes blob)`.execute(db)
    await checkpointed(db)
    const before = fs.statSync(file).size
    await writeTransaction(db, async (trx) => {
      for (let i = 0; i < ROWS / 100; i++) {
        await sql`insert into ballast select randomblob(3000) from (select 1 from json_each(${JSON.stringify(Array(100).fill(0))}))`.execute(
          trx,
        )
      }
    })
    await checkpointed(db)
    expect(fs.statSync(file).size).toBeGreaterThan(before + ROWS * 3000)
  })
})
