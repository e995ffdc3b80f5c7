// `npm run fuzz`: hostile input against a running server over real sockets: lead bodies of every
// shape (every control character and Unicode edge among them) and model-API queries, counted by
// status. Any 5xx or dropped connection is a finding; so is a lead answered with a 2xx that is not
// in the database afterwards, an answer over 1 MB, or one slower than 200 ms.
// FUZZ_URL targets a server that is already running (its database is not checked); otherwise a
// production build is started on a free loopback port, once on SQLite and, with
// TEST_DATABASE_URL, once on PostgreSQL. Bounded: FUZZ_LEADS, FUZZ_QUERIES and FUZZ_SECONDS. Then
// the read queries with relations (relation-queries.ts, FUZZ_RELATION_QUERIES), timed and
// measured, on that server, or on SQLite and, with TEST_DATABASE_URL, PostgreSQL. Last, the
// catalogue's newer surfaces (surfaces.ts, FUZZ_SURFACE_REQUESTS): the search, price filters, derived
// images from every stored name and the feed in each encoding, on a server of its own per database
// with a 1 MB page cache, so that a page without parameters pushed out by the rest would show.
import path from 'node:path'
import fc from 'fast-check'
import { Pool } from 'undici'
import { fuzzQueryFamily } from './relation-queries'
import { fuzzSurfaces, reportSurfaces } from './surfaces'
import { anyLeadRequest, modelQueryUrl, type RawRequest } from '../helpers/arbitraries'

export interface FuzzOptions {
  readonly url: string
  readonly leads: number
  readonly queries: number
  readonly concurrency?: number
  /** Stops sending when this many seconds have passed */
  readonly seconds?: number
  readonly seed?: number
  readonly adminToken?: string
}

export interface FuzzResult {
  readonly statuses: Record<string, number>
  /** Requests answered with a 5xx or not answered at all, as method, URL and a short body */
  readonly failures: string[]
  readonly sent: number
  /** The idempotency keys of leads answered with a 2xx: each must be in the database */
  readonly acknowledged: Set<string>
  /** The largest answer, in bytes, and the slowest, in ms */
  readonly maxBytes: number
  readonly maxMs: number
  /** Answers over 1 MB, and slower than 200 ms */
  readonly oversized: number
  readonly slow: number
  /** The five slowest answers, as method, URL, body and time */
  readonly slowest: string[]
  /** The median and the 99th percentile of the answer times, in ms */
  readonly p50: number
  readonly p99: number
}

export const MAX_ANSWER_BYTES = 1024 * 1024
export const MAX_ANSWER_MS = 200

type Job = { method: 'POST' | 'GET'; path: string; request?: RawRequest; key?: string; admin?: boolean }

function* jobs(options: FuzzOptions, seed: number): Generator<Job> {
  const batch = 500
  let n = 0
  for (let done = 0; done < options.leads; done += batch) {
    const count = Math.min(batch, options.leads - done)
    for (const request of fc.sample(anyLeadRequest, { numRuns: count, seed: seed + done })) {
      // Every lead is told apart by its key; one in twenty reuses the key before it (a repeat,
      // or another request with a known key: 200 or 422).
      const key = `fuzz-${seed}-${n % 20 === 19 ? n - 1 : n}`
      n++
      yield { method: 'POST', path: '/api/feedback', request, key }
    }
  }
  for (let done = 0; done < options.queries; done += batch) {
    const count = Math.min(batch, options.queries - done)
    const urls = fc.sample(fc.tuple(modelQueryUrl, fc.boolean()), { numRuns: count, seed: seed + 7 + done })
    for (const [path, admin] of urls) yield { method: 'GET', path, admin }
  }
}

export async function runFuzz(options: FuzzOptions): Promise<FuzzResult> {
  const seed = options.seed ?? Date.now()
  const pool = new Pool(options.url, { connections: options.concurrency ?? 16, pipelining: 1 })
  const statuses: Record<string, number> = {}
  const failures: string[] = []
  const acknowledged = new Set<string>()
  const measured = { maxBytes: 0, maxMs: 0, oversized: 0, slow: 0 }
  const timings: Array<{ ms: number; job: Job; status: number }> = []
  const times: number[] = []
  const deadline = Date.now() + (options.seconds ?? Infinity) * 1000
  const queue = jobs(options, seed)
  let sent = 0
  const worker = async () => {
    for (let next = queue.next(); !next.done && Date.now() < deadline; next = queue.next()) {
      const job = next.value
      sent++
      const headers: Record<string, string> = { ...job.request?.headers }
      if (job.key) headers['idempotency-key'] = job.key
      if (job.admin && options.adminToken) headers.authorization = `Bearer ${options.adminToken}`
      const started = performance.now()
      try {
        const res = await pool.request({ method: job.method, path: job.path, headers, body: job.request?.payload })
        const body = Buffer.from(await res.body.arrayBuffer())
        const ms = performance.now() - started
        statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1
        measured.maxBytes = Math.max(measured.maxBytes, body.length)
        measured.maxMs = Math.max(measured.maxMs, ms)
        if (body.length > MAX_ANSWER_BYTES) measured.oversized++
        if (ms > MAX_ANSWER_MS) measured.slow++
        times.push(ms)
        timings.push({ ms, job, status: res.statusCode })
        if (timings.length > 50) timings.sort((a, b) => b.ms - a.ms).splice(5)
        if (res.statusCode >= 500) failures.push(describe(job, `${res.statusCode} ${body.toString().slice(0, 200)}`))
        if (job.key && res.statusCode >= 200 && res.statusCode < 400) acknowledged.add(job.key)
      } catch (error) {
        statuses.error = (statuses.error ?? 0) + 1
        failures.push(describe(job, (error as Error).message))
      }
    }
  }
  await Promise.all(Array.from({ length: options.concurrency ?? 16 }, worker))
  await pool.close()
  const slowest = timings
    .sort((a, b) => b.ms - a.ms)
    .slice(0, 5)
    .map(({ ms, job, status }) => describe(job, `${status} in ${ms.toFixed(0)} ms`))
  times.sort((a, b) => a - b)
  const percentile = (p: number) => times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))] ?? 0
  return { statuses, failures, sent, acknowledged, ...measured, slowest, p50: percentile(50), p99: percentile(99) }
}

function describe(job: Job, outcome: string): string {
  const body = job.request ? ` ${JSON.stringify(job.request.payload.slice(0, 120))}` : ''
  return `${job.method} ${job.path.slice(0, 200)}${body} → ${outcome}`
}

/** The report of one run, and whether it found anything. */
export function report(name: string, result: FuzzResult, stored: number | null, seconds: number): boolean {
  const lines = [`fuzz (${name}): ${result.sent} requests in ${seconds.toFixed(1)} s`]
  for (const [status, count] of Object.entries(result.statuses).sort()) lines.push(`  ${status.padEnd(6)} ${count}`)
  lines.push(
    `  leads answered 2xx: ${result.acknowledged.size}, in the database: ${stored ?? 'not checked'}`,
    `  largest answer: ${result.maxBytes} bytes (${result.oversized} over 1 MB)`,
    `  answer times: median ${result.p50.toFixed(1)} ms, 99th percentile ${result.p99.toFixed(1)} ms`,
    `  slowest answer: ${result.maxMs.toFixed(1)} ms (${result.slow} over ${MAX_ANSWER_MS} ms)`,
  )
  for (const failure of result.failures.slice(0, 20)) lines.push(`  FAIL ${failure}`)
  if (result.slow > 0) for (const slow of result.slowest) lines.push(`  SLOW ${slow}`)
  const missing = stored === null ? 0 : result.acknowledged.size - stored
  const ok = result.failures.length === 0 && missing === 0 && result.oversized === 0 && result.slow === 0
  lines.push(ok ? 'no findings' : `${result.failures.length} 5xx or dropped, ${missing} leads missing`)
  process.stdout.write(`${lines.join('\n')}\n`)
  return ok
}

/** How many of these idempotency keys the leads table holds (each key is unique there). */
export async function countStoredKeys(
  query: (keys: string[]) => Promise<number>,
  keys: Iterable<string>,
): Promise<number> {
  const all = [...keys]
  let stored = 0
  for (let at = 0; at < all.length; at += 500) stored += await query(all.slice(at, at + 500))
  return stored
}

/**
 * A run after a short one that is not measured: the first answers of a fresh process compile its
 * code (the form page's first rendering takes half a second), which is not what the bounds are about.
 */
async function warmRun(options: FuzzOptions): Promise<{ result: FuzzResult; seconds: number }> {
  const warm = await runFuzz({ ...options, leads: 200, queries: 100, seed: 1 })
  const started = performance.now()
  const result = await runFuzz(options)
  for (const key of warm.acknowledged) result.acknowledged.add(key)
  return { result, seconds: (performance.now() - started) / 1000 }
}

async function main(): Promise<void> {
  const env = process.env
  const options = {
    leads: Number(env.FUZZ_LEADS ?? 100_000),
    queries: Number(env.FUZZ_QUERIES ?? 10_000),
    seconds: Number(env.FUZZ_SECONDS ?? 900),
    adminToken: 'fuzz-admin-token-0123456789',
    // Fewer connections than the default: the 200 ms bound is about one answer, not a queue.
    concurrency: Number(env.FUZZ_CONCURRENCY ?? 4),
  }
  const relationQueries = Number(env.FUZZ_RELATION_QUERIES ?? 5_000)
  const surfaceRequests = Number(env.FUZZ_SURFACE_REQUESTS ?? 4_000)
  const surfaces = async (name: string, url: string, mediaDir: string) => {
    const started = performance.now()
    const result = await fuzzSurfaces({ url, mediaDir, adminToken: options.adminToken, requests: surfaceRequests })
    return reportSurfaces(name, result, (performance.now() - started) / 1000)
  }
  if (env.FUZZ_URL) {
    const { result, seconds } = await warmRun({ ...options, url: env.FUZZ_URL })
    const families = await fuzzQueryFamily(env.FUZZ_URL, env.FUZZ_URL, options.adminToken, relationQueries)
    // The media names come from the server's folder: only where it is named (FUZZ_MEDIA_DIR).
    const newer = env.FUZZ_MEDIA_DIR ? await surfaces(env.FUZZ_URL, env.FUZZ_URL, env.FUZZ_MEDIA_DIR) : true
    process.exitCode = report(env.FUZZ_URL, result, null, seconds) && families && newer ? 0 : 1
    return
  }
  const { ensureBuild, startProdServer } = await import('../helpers/prod-server')
  const { SQLite } = await import('../../server/data/sqlite-driver')
  const { createTestSchema, TEST_DATABASE_URL } = await import('../helpers/postgres')
  const pg = (await import('pg')).default
  ensureBuild()
  const serverEnv = { LEAD_RATE_LIMIT: '0', ADMIN_TOKEN: options.adminToken }
  let ok = true

  const sqlite = await startProdServer(serverEnv)
  try {
    const { result, seconds } = await warmRun({ ...options, url: sqlite.url })
    await sqlite.stop()
    const db = new SQLite(sqlite.dbPath, { readonly: true })
    const stored = await countStoredKeys(async (keys) => {
      const marks = keys.map(() => '?').join(',')
      return (
        db.prepare(`select count(*) as n from feedback where idempotencyKey in (${marks})`).get(...keys) as {
          n: number
        }
      ).n
    }, result.acknowledged)
    db.close()
    ok = report('SQLite', result, stored, seconds) && ok
  } finally {
    await sqlite.stop()
    sqlite.cleanup()
  }

  if (TEST_DATABASE_URL) {
    const schema = await createTestSchema()
    const server = await startProdServer({ ...serverEnv, DATABASE_URL: schema.url })
    const client = new pg.Client({ connectionString: schema.url })
    try {
      const { result, seconds } = await warmRun({ ...options, url: server.url })
      await server.stop()
      await client.connect()
      const stored = await countStoredKeys(async (keys) => {
        const answer = await client.query<{ n: string }>(
          'select count(*) as n from feedback where "idempotencyKey" = any($1)',
          [keys],
        )
        return Number(answer.rows[0].n)
      }, result.acknowledged)
      ok = report('PostgreSQL', result, stored, seconds) && ok
    } finally {
      await server.stop()
      server.cleanup()
      await client.end().catch(() => {})
      await schema.drop()
    }
  } else {
    process.stdout.write('fuzz (PostgreSQL): skipped, TEST_DATABASE_URL is not set\n')
  }

  // The read queries with relations, each database on a server of its own.
  const families: Array<{ name: string; env: Record<string, string> }> = [{ name: 'SQLite', env: serverEnv }]
  const schema = TEST_DATABASE_URL ? await createTestSchema() : null
  if (schema) families.push({ name: 'PostgreSQL', env: { ...serverEnv, DATABASE_URL: schema.url } })
  for (const family of families) {
    const server = await startProdServer(family.env)
    try {
      ok = (await fuzzQueryFamily(family.name, server.url, options.adminToken, relationQueries)) && ok
    } finally {
      await server.stop()
      server.cleanup()
    }
  }
  await schema?.drop()

  // The newer surfaces, each database on a server of its own with the feed on and a small page cache.
  const surfaceEnv = { ...serverEnv, YANDEX_FEED: 'true', PAGE_CACHE_MB: '1' }
  const surfaceRuns: Array<{ name: string; env: Record<string, string> }> = [{ name: 'SQLite', env: surfaceEnv }]
  const surfaceSchema = TEST_DATABASE_URL ? await createTestSchema() : null
  if (surfaceSchema) surfaceRuns.push({ name: 'PostgreSQL', env: { ...surfaceEnv, DATABASE_URL: surfaceSchema.url } })
  for (const run of surfaceRuns) {
    const server = await startProdServer(run.env)
    try {
      ok = (await surfaces(run.name, server.url, path.join(server.dir, 'media'))) && ok
    } finally {
      await server.stop()
      server.cleanup()
    }
  }
  await surfaceSchema?.drop()
  process.exitCode = ok ? 0 : 1
}

if (import.meta.url === `file://${process.argv[1]}`) await main()
