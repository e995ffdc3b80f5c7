// The SQLite database held by another writer, as another process in the middle of a long write
// would: the app's writes wait for the lock and then fail as "busy", the case the lead journal is
// for. The app's busy timeout is shortened while held, so a test waits 50 ms, not 5 s.
import path from 'node:path'
import { sql } from 'kysely'
import { SQLite } from '../../server/data/sqlite-driver'
import type { TestApp } from './build-test-app'

export async function lockDatabase(t: Pick<TestApp, 'app' | 'dir'>): Promise<() => Promise<void>> {
  await sql`PRAGMA busy_timeout = 50`.execute(t.app.db)
  const other = new SQLite(path.join(t.dir, 'site.db'))
  other.exec('BEGIN EXCLUSIVE')
  let held = true
  return async () => {
    if (!held) return
    held = false
    other.exec('ROLLBACK')
    other.close()
    await sql`PRAGMA busy_timeout = 5000`.execute(t.app.db)
  }
}
