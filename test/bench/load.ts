// The bench's load generator and its readings of the server process (Linux /proc): fixed-duration
// closed-loop load over keep-alive connections, latencies, the server's CPU time and memory. What
// visitors meet while a long write runs is site-watch.ts.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import type { Pool } from 'undici'
import { hasTaskset } from '../helpers/prod-server'

export interface BenchRequest {
  readonly method: 'GET' | 'POST'
  readonly path: string
  readonly headers?: Record<string, string>
  /** A fresh body for each request (a lead must differ from the last) */
  readonly body?: (i: number) => string
}

export interface LoadResult {
  readonly requests: number
  readonly perSecond: number
  readonly p50: number
  readonly p99: number
  /** The server's CPU time (user + system) over the requests it served, per request */
  readonly cpuMsPerRequest: number
  readonly errors: number
  readonly statuses: string
  /** Seconds of load before measuring, until the server's CPU time per request settled */
  readonly warmUpSeconds: number
}

/** The server and load generator on different cores, where there are two and taskset exists. */
export function pinLoadGenerator(cpu: number): boolean {
  if (!hasTaskset() || (fs.readFileSync('/proc/cpuinfo', 'utf8').match(/^processor\s*:/gm)?.length ?? 1) < 2)
    return false
  return spawnSync('taskset', ['-a', '-p', '-c', String(cpu), String(process.pid)]).status === 0
}

/** CPU time (user + system) the process has used so far, in ms: /proc/<pid>/stat on Linux. */
export function cpuMs(pid: number): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100 // clock ticks of 10 ms
  } catch {
    return NaN
  }
}

/** Resident memory of the process in MiB: /proc/<pid>/status. */
export function rssMiB(pid: number): number {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]
    return Number(kb) / 1024
  } catch {
    return NaN
  }
}

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN
}

/** The median, the 99th percentile and the worst of some times, ms */
export function spreadOf(times: readonly number[]): { p50: number; p99: number; worst: number } {
  const sorted = [...times].sort((a, b) => a - b)
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), worst: sorted.at(-1) ?? 0 }
}

let sent = 0

async function send(pool: Pool, request: BenchRequest, headers: Record<string, string>) {
  const res = await pool.request({
    method: request.method,
    path: request.path,
    headers: { ...request.headers, ...headers },
    body: request.body?.(sent++),
  })
  const body = Buffer.from(await res.body.arrayBuffer())
  return { status: res.statusCode, body }
}

/** `concurrency` loops, each running `one` back to back until `end` (a Date.now() time). */
async function loops(concurrency: number, end: number, one: () => Promise<void>): Promise<void> {
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (Date.now() < end) await one()
    }),
  )
}

/**
 * Each URL is loaded before measuring until the server's CPU time per request settles, so that a
 * figure is the cost of a request to a running server, not of compiling it: V8 optimises the hot
 * code of an uncached page over its first few thousand renderings (5–10 s at 600 req/s, with the
 * compiler's own CPU time on the same core), and a measurement started after 1 s counted ~40 %
 * more than the settled cost. Windows of 1 s, at least three, until the last three agree within
 * 6 %; at most 20 s.
 */
const WARM_UP = { windowMs: 1000, minWindows: 3, spread: 1.06, maxMs: 20_000 }

/** Loads `request` in windows until the server's CPU ms per request settles; returns the seconds it took. */
async function warmUp(
  pool: Pool,
  pid: number,
  request: BenchRequest,
  headers: Record<string, string>,
  concurrency: number,
) {
  const started = Date.now()
  const perRequest: number[] = []
  while (Date.now() - started < WARM_UP.maxMs) {
    const cpuBefore = cpuMs(pid)
    let served = 0
    await loops(concurrency, Date.now() + WARM_UP.windowMs, async () => {
      await send(pool, request, headers)
      served++
    })
    perRequest.push((cpuMs(pid) - cpuBefore) / Math.max(served, 1))
    const last = perRequest.slice(-WARM_UP.minWindows)
    if (last.length === WARM_UP.minWindows && Math.max(...last) <= WARM_UP.spread * Math.min(...last)) break
  }
  return (Date.now() - started) / 1000
}

/** `concurrency` loops sending `request` back to back for `durationMs`, after the warm-up. */
export async function runLoad(
  pool: Pool,
  pid: number,
  request: BenchRequest,
  headers: Record<string, string>,
  durationMs: number,
  concurrency: number,
): Promise<LoadResult> {
  const warmUpSeconds = await warmUp(pool, pid, request, headers, concurrency)
  const latencies: number[] = []
  const statuses = new Map<number, number>()
  let errors = 0
  const cpuBefore = cpuMs(pid)
  const started = performance.now()
  await loops(concurrency, Date.now() + durationMs, async () => {
    const at = performance.now()
    try {
      const { status } = await send(pool, request, headers)
      statuses.set(status, (statuses.get(status) ?? 0) + 1)
      if (status >= 500) errors++
    } catch {
      errors++
    }
    latencies.push(performance.now() - at)
  })
  const seconds = (performance.now() - started) / 1000
  const cpu = cpuMs(pid) - cpuBefore
  latencies.sort((a, b) => a - b)
  return {
    requests: latencies.length,
    perSecond: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    cpuMsPerRequest: cpu / latencies.length,
    errors,
    statuses: [...statuses].map(([status, count]) => `${status}×${count}`).join(' '),
    warmUpSeconds,
  }
}

/** The answer's size as sent: plain, gzip and brotli (the body bytes on the wire). */
export async function answerSizes(pool: Pool, request: BenchRequest) {
  const size = async (encoding: string) => (await send(pool, request, { 'accept-encoding': encoding })).body.length
  return { raw: await size('identity'), gzip: await size('gzip'), br: await size('br') }
}
