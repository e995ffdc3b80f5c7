// The lead promise under a crash: the production server as a child process takes leads in a
// loop, is killed with SIGKILL at a random moment and restarted on the same database. Every lead
// that was answered 201 must be there.
import { SQLite as Database } from '../../server/data/sqlite-driver'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { tempDir } from '../helpers/build-test-app'
import { ensureBuild, startProdServer, type ProdServer } from '../helpers/prod-server'

const ENV = { LEAD_RATE_LIMIT: '0', LEAD_MIN_FILL_SECONDS: '0' }
const WORKERS = 4

let dir: string
let server: ProdServer | undefined

beforeAll(() => {
  ensureBuild()
  dir = tempDir('vitrina-durability-')
})
afterAll(async () => {
  await server?.stop('SIGKILL')
  server?.cleanup()
})

function storedEmails(dbPath: string): Set<string> {
  const db = new Database(dbPath, { readonly: true })
  try {
    return new Set((db.prepare('select email from feedback').all() as { email: string }[]).map((r) => r.email))
  } finally {
    db.close()
  }
}

/** Posts leads from WORKERS loops until the server dies; returns the e-mails answered 201. */
async function postUntilKilled(
  target: ProdServer,
  round: number,
): Promise<{ acked: string[]; firstAck: Promise<void>; stopped: Promise<void> }> {
  const acked: string[] = []
  let signalFirst!: () => void
  const firstAck = new Promise<void>((resolve) => {
    signalFirst = resolve
  })
  let n = 0
  const loop = async (worker: number) => {
    for (;;) {
      const email = `r${round}w${worker}n${n++}@crash.example`
      try {
        const res = await fetch(`${target.url}/api/feedback`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'idempotency-key': `crash-${round}-${email}` },
          body: JSON.stringify({ username: 'Клиент', phone: '8 999 000-00-00', email, consent: true }),
        })
        if (res.status === 201) {
          acked.push(email)
          signalFirst()
        }
        await res.arrayBuffer().catch(() => {})
      } catch {
        return // the server is gone
      }
    }
  }
  const loops = Promise.all(Array.from({ length: WORKERS }, (_, w) => loop(w)))
  return {
    acked,
    firstAck,
    /** Every worker has seen the server go (its last fetch failed). */
    stopped: loops.then(() => {}),
  }
}

describe('a SIGKILL during lead intake', () => {
  for (const round of [1, 2, 3]) {
    it(`loses no acknowledged lead (round ${round})`, async () => {
      server = await startProdServer(ENV, dir)
      const { acked, firstAck, stopped } = await postUntilKilled(server, round)
      await firstAck
      await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 500))
      const ackedAtKill = acked.length
      await server.stop('SIGKILL')
      // The in-flight fetches have failed before the list is read.
      await stopped
      expect(acked.length).toBeGreaterThan(0)
      expect(acked.length).toBeGreaterThanOrEqual(ackedAtKill)

      // The restarted server recovers the WAL and keeps taking leads.
      server = await startProdServer(ENV, dir)
      const res = await fetch(`${server.url}/api/feedback`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          username: 'После рестарта',
          phone: '8 999 000-00-01',
          email: `after${round}@crash.example`,
          consent: true,
        }),
      })
      expect(res.status).toBe(201)
      await server.stop('SIGTERM')

      const stored = storedEmails(server.dbPath)
      const lost = acked.filter((email) => !stored.has(email))
      expect(lost).toEqual([])
      expect(stored.has(`after${round}@crash.example`)).toBe(true)
    }, 120_000)
  }
})
