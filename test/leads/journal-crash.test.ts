// A process killed with SIGKILL while it drains the lead journal: after a restart every journaled
// lead is in the database exactly once (the idempotency key holds across the crash), and the
// journal is gone.
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SQLite } from '../../server/data/sqlite-driver'
import { encodeRecord } from '../../server/leads/intake/journal'
import { tempDir } from '../helpers/build-test-app'
import { spawn } from 'node:child_process'
import { ROOT_DIR } from '../../server/config/config'
import { ensureBuild, freePort, startProdServer } from '../helpers/prod-server'

const LEADS = 1000
// Made in beforeAll: a run that skips every test here runs neither hook, and left the folder.
let dir = ''

beforeAll(() => {
  dir = tempDir('vitrina-journal-crash-')
})
afterAll(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true })
})

/** Journaled leads in the database so far (0 while it does not exist yet). */
function countStored(): number {
  const file = path.join(dir, 'site.db')
  if (!fs.existsSync(file)) return 0
  try {
    const db = new SQLite(file, { readonly: true, timeout: 50 })
    try {
      return (
        db.prepare("select count(*) as n from feedback where idempotencyKey like 'crash-%'").get() as { n: number }
      ).n
    } finally {
      db.close()
    }
  } catch {
    return 0 // not migrated yet, or busy
  }
}

/** What a worker that died mid-outage left behind: its journal, named by a pid no longer alive. */
function writeOrphanJournal(): void {
  const journalDir = path.join(dir, 'journal')
  fs.mkdirSync(journalDir, { recursive: true })
  const at = new Date().toISOString()
  const lines = Array.from({ length: LEADS }, (_, i) =>
    encodeRecord({
      at,
      lead: { username: `Покупатель ${i}`, phone: '+7 912 345-67-89', email: `crash${i}@example.ru`, consent: true },
      spam: false,
      idempotencyKey: `crash-${i}`,
      origin: { sourceUrl: '/', product: null, utm: null },
      consent: { ip: '203.0.113.7', userAgent: 'Journal crash test', version: 'label-only' },
    }),
  )
  fs.writeFileSync(path.join(journalDir, 'leads-999999.journal'), lines.join(''))
}

describe('SIGKILL during a drain of the lead journal', () => {
  it('stores every journaled lead exactly once after the restart', async () => {
    ensureBuild()
    writeOrphanJournal()
    // The first process drains at start; it is killed once some leads, but not all, are stored.
    const first = spawn(process.execPath, ['dist/node/main.mjs'], {
      cwd: ROOT_DIR,
      env: {
        ...process.env,
        NODE_ENV: 'production',
        PORT: String(await freePort()),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        DATABASE_URL: `file:${path.join(dir, 'site.db')}`,
        MEDIA_DIR: path.join(dir, 'media'),
        LEAD_JOURNAL_DIR: path.join(dir, 'journal'),
        SEED_DEMO: 'true',
      },
      stdio: 'ignore',
    })
    let storedBeforeKill = 0
    const until = Date.now() + 30_000
    while (Date.now() < until) {
      storedBeforeKill = countStored()
      if (storedBeforeKill > 0) break
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
    first.kill('SIGKILL')
    await new Promise((resolve) => first.once('exit', resolve))
    expect(storedBeforeKill).toBeGreaterThan(0)
    expect(countStored()).toBeLessThan(LEADS) // killed mid-drain, not after it
    const second = await startProdServer({ LEAD_RATE_LIMIT: '0' }, dir)
    try {
      const deadline = Date.now() + 20_000
      const journal = path.join(dir, 'journal', 'leads-999999.journal')
      while (fs.existsSync(journal) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100))
      expect(fs.existsSync(journal)).toBe(false)
    } finally {
      await second.stop()
    }
    const db = new SQLite(path.join(dir, 'site.db'), { readonly: true })
    try {
      const rows = db
        .prepare("select idempotencyKey, count(*) as n from feedback where idempotencyKey like 'crash-%' group by 1")
        .all() as { idempotencyKey: string; n: number }[]
      expect(rows).toHaveLength(LEADS)
      expect(rows.every((row) => row.n === 1)).toBe(true)
    } finally {
      db.close()
    }
  }, 90_000)
})
