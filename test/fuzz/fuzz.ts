// `npm run fuzz`: hostile input against a running server over real sockets: lead bodies of every
// shape and model-API queries, counted by status. Any 5xx or dropped connection is a finding.
// FUZZ_URL targets a server that is already running; otherwise a production build is started on a
// free loopback port for the run. Bounded: FUZZ_LEADS, FUZZ_QUERIES and FUZZ_SECONDS. Then the
// read queries with relations (relation-queries.ts, FUZZ_RELATION_QUERIES), timed and measured, on
// that server and, where TEST_DATABASE_URL names one, on PostgreSQL.
import fc from 'fast-check'
import { Pool } from 'undici'
import { anyLeadRequest, modelQueryUrl, type RawRequest } from '../helpers/arbitraries'
import { fuzzQueryFamily } from './relation-queries'

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
}

type Job = { method: 'POST' | 'GET'; path: string; request?: RawRequest; admin?: boolean }

function* jobs(options: FuzzOptions): Generator<Job> {
  const seed = options.seed ?? Date.now()
  const batch = 500
  for (let done = 0; done < options.leads; done += batch) {
    const n = Math.min(batch, options.leads - done)
    for (const request of fc.sample(anyLeadRequest, { numRuns: n, seed: seed + done })) {
      yield { method: 'POST', path: '/api/feedback', request }
    }
  }
  for (let done = 0; done < options.queries; done += batch) {
    const n = Math.min(batch, options.queries - done)
    const urls = fc.sample(fc.tuple(modelQueryUrl, fc.boolean()), { numRuns: n, seed: seed + 7 + done })
    for (const [path, admin] of urls) yield { method: 'GET', path, admin }
  }
}

export async function runFuzz(options: FuzzOptions): Promise<FuzzResult> {
  const pool = new Pool(options.url, { connections: options.concurrency ?? 16, pipelining: 1 })
  const statuses: Record<string, number> = {}
  const failures: string[] = []
  const deadline = Date.now() + (options.seconds ?? Infinity) * 1000
  const queue = jobs(options)
  let sent = 0
  const worker = async () => {
    for (let next = queue.next(); !next.done && Date.now() < deadline; next = queue.next()) {
      const job = next.value
      sent++
      const headers: Record<string, string> = { ...job.request?.headers }
      if (job.admin && options.adminToken) headers.authorization = `Bearer ${options.adminToken}`
      try {
        const res = await pool.request({ method: job.method, path: job.path, headers, body: job.request?.payload })
        const body = await res.body.text()
        statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1
        if (res.statusCode >= 500) failures.push(describe(job, `${res.statusCode} ${body.slice(0, 200)}`))
      } catch (error) {
        statuses.error = (statuses.error ?? 0) + 1
        failures.push(describe(job, (error as Error).message))
      }
    }
  }
  await Promise.all(Array.from({ length: options.concurrency ?? 16 }, worker))
  await pool.close()
  return { statuses, failures, sent }
}

function describe(job: Job, outcome: string): string {
  const body = job.request ? ` ${JSON.stringify(job.request.payload.slice(0, 120))}` : ''
  return `${job.method} ${job.path.slice(0, 200)}${body} → ${outcome}`
}

async function main(): Promise<void> {
  const env = process.env
  const leads = Number(env.FUZZ_LEADS ?? 100_000)
  const queries = Number(env.FUZZ_QUERIES ?? 10_000)
  const seconds = Number(env.FUZZ_SECONDS ?? 900)
  const adminToken = 'fuzz-admin-token-0123456789'
  let url = env.FUZZ_URL
  let stop: (() => Promise<void>) | undefined
  if (!url) {
    const { ensureBuild, startProdServer } = await import('../helpers/prod-server')
    ensureBuild()
    const server = await startProdServer({ LEAD_RATE_LIMIT: '0', ADMIN_TOKEN: adminToken })
    url = server.url
    stop = async () => {
      await server.stop()
      server.cleanup()
    }
  }
  const started = Date.now()
  const result = await runFuzz({ url, leads, queries, seconds, adminToken })
  const relationQueries = Number(env.FUZZ_RELATION_QUERIES ?? 5_000)
  const familiesClean = await fuzzQueryFamilies(url, adminToken, relationQueries)
  await stop?.()
  const took = ((Date.now() - started) / 1000).toFixed(1)
  process.stdout.write(`fuzz: ${result.sent} requests in ${took} s against ${url}\n`)
  for (const [status, count] of Object.entries(result.statuses).sort()) {
    process.stdout.write(`  ${status.padEnd(6)} ${count}\n`)
  }
  for (const failure of result.failures.slice(0, 20)) process.stdout.write(`  FAIL ${failure}\n`)
  process.stdout.write(`${result.failures.length === 0 ? 'no 5xx' : `${result.failures.length} failures`}\n`)
  process.exitCode = result.failures.length === 0 && familiesClean ? 0 : 1
}

/** The read-query family on this server (SQLite unless FUZZ_URL says otherwise), then on PostgreSQL. */
async function fuzzQueryFamilies(url: string, adminToken: string, count: number): Promise<boolean> {
  let clean = await fuzzQueryFamily(process.env.FUZZ_URL ? url : 'SQLite', url, adminToken, count)
  if (process.env.FUZZ_URL || !process.env.TEST_DATABASE_URL) return clean
  const { createTestSchema } = await import('../helpers/postgres')
  const { startProdServer } = await import('../helpers/prod-server')
  const schema = await createTestSchema()
  const server = await startProdServer({ DATABASE_URL: schema.url, ADMIN_TOKEN: adminToken })
  try {
    clean = (await fuzzQueryFamily('PostgreSQL', server.url, adminToken, count)) && clean
  } finally {
    await server.stop()
    server.cleanup()
    await schema.drop()
  }
  return clean
}

if (import.meta.url === `file://${process.argv[1]}`) await main()
