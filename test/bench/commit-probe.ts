// A bare commit on PostgreSQL beside the site (issue 43): a row inserted and committed every 20 ms
// on a connection of its own, into a table of the bench's schema, while an exchange runs. A lead's
// commit waits for what this one waits for (the log the import fills, reaching the disk), so a slow
// lead beside slow bare commits is the database's, and beside quick ones the site's own. Measured
// this way on 2026-12-02: 6,000 commits a first exchange of 110,000 products, p99.9 16–20 ms, worst
// 20–44 ms, while the leads' worst was 38–63 ms.
import pg from 'pg'
import { spreadOf } from './load'

export interface CommitTimes {
  commits: number
  p50: number
  p99: number
  worst: number
  /** Commits over 50 ms: their clock time (UTC) and how long they took */
  slow: { at: number; ms: number }[]
}

export async function probeCommits(url: string): Promise<{ stop(): Promise<CommitTimes> }> {
  const named = new URL(url)
  named.searchParams.set('application_name', 'vitrina-bench-probe')
  const client = new pg.Client({ connectionString: named.toString() })
  await client.connect()
  await client.query(
    'CREATE TABLE IF NOT EXISTS "benchCommitProbe" (id bigserial PRIMARY KEY, at timestamptz NOT NULL DEFAULT now(), note text NOT NULL)',
  )
  const times: number[] = []
  const slow: CommitTimes['slow'] = []
  let stopped = false
  const running = (async () => {
    while (!stopped) {
      const start = performance.now()
      await client.query('BEGIN')
      await client.query(`INSERT INTO "benchCommitProbe" (note) VALUES ('a row the size of a lead''s')`)
      await client.query('COMMIT')
      const ms = performance.now() - start
      times.push(ms)
      if (ms > 50) slow.push({ at: Date.now() - ms, ms })
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
  })()
  return {
    async stop() {
      stopped = true
      await running
      await client.query('DROP TABLE "benchCommitProbe"')
      await client.end()
      return { commits: times.length, ...spreadOf(times), slow }
    },
  }
}

export function describeCommits(times: CommitTimes): string {
  const slow = times.slow.map(({ at, ms }) => `${ms.toFixed(0)} ms (${new Date(at).toISOString().slice(11, 23)})`)
  return (
    `a bare commit beside, every 20 ms: ${times.commits}, p50 ${times.p50.toFixed(1)} ms, p99 ${times.p99.toFixed(1)} ms, ` +
    `worst ${times.worst.toFixed(0)} ms${slow.length > 0 ? `; over 50 ms: ${slow.slice(0, 12).join(', ')}` : ''}`
  )
}
