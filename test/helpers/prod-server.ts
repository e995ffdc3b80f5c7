// The production build served by the compiled entry point (dist/node/main.mjs) as a child process
// on a free loopback port, the way PM2 runs it.
import { spawn, type ChildProcess } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import { isBuildFresh } from '../../server/build-check'
import { runBuild } from '../../server/build'
import { ROOT_DIR } from '../../server/config/config'
import { PATHS } from '../../src/site/paths'
import { tempDir } from './build-test-app'

/**
 * Headers for a test's own request that should not stay in this process's connection pool: an idle
 * kept-alive socket holds the server's graceful stop for up to the 5 s it promises its clients
 * (server/main.ts), so a stop in afterAll soon after such a request waits for it.
 */
export const NOT_KEPT_ALIVE = { connection: 'close' } as const

export function ensureBuild(): void {
  if (!isBuildFresh()) runBuild()
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo
      server.close(() => resolve(port))
    })
  })
}

export interface ProdServer {
  url: string
  /** Milliseconds from spawn to the server's "is running" line (listening), once it is printed */
  startupMs: () => number | null
  port: number
  dir: string
  dbPath: string
  child: ChildProcess
  output: () => string
  /** Resolves once the output holds every line the server logged before the call */
  logsSettled(): Promise<void>
  stop(signal?: NodeJS.Signals): Promise<number | null>
  cleanup(): void
}

/** Whether `taskset` (util-linux) can pin a process to a CPU here. */
export function hasTaskset(): boolean {
  return ['/usr/bin/taskset', '/bin/taskset'].some((file) => fs.existsSync(file))
}

/**
 * @param options.cpu pin the server to this CPU (`taskset -c`) where taskset exists: the bench
 *   keeps its load generator off the server's core.
 */
export async function startProdServer(
  env: Record<string, string> = {},
  dir = tempDir('vitrina-prod-'),
  options: { cpu?: number; nodeArgs?: string[] } = {},
): Promise<ProdServer> {
  const port = await freePort()
  const dbPath = path.join(dir, 'site.db')
  let output = ''
  let startupMs: number | null = null
  const node = [process.execPath, '--enable-source-maps', ...(options.nodeArgs ?? []), 'dist/node/main.mjs']
  const [command, ...args] =
    options.cpu !== undefined && hasTaskset() ? ['taskset', '-c', String(options.cpu), ...node] : node
  const spawnedAt = performance.now()
  const child = spawn(command, args, {
    cwd: ROOT_DIR,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATABASE_URL: `file:${dbPath}`,
      MEDIA_DIR: path.join(dir, 'media'),
      LEAD_JOURNAL_DIR: path.join(dir, 'journal'),
      LOG_LEVEL: 'warn',
      // An explicit DATABASE_URL is seeded only when asked: the tests want the demo shop.
      SEED_DEMO: 'true',
      // As in build-test-app: no server tells Yandex of its writes unless a test names a stand-in.
      INDEXNOW: 'off',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  child.stdout.on('data', (b) => {
    output += b
    if (startupMs === null && output.includes('is running at')) startupMs = performance.now() - spawnedAt
  })
  child.stderr.on('data', (b) => {
    output += b
  })
  const url = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 60_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}: ${output}`)
    try {
      // A test may stop the server right after its start: the probe's socket must not hold the stop.
      const res = await fetch(`${url}/robots.txt`, { headers: NOT_KEPT_ALIVE })
      if (res.ok) break
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL')
      throw new Error(`server did not start in 60 s: ${output}`)
    }
    await new Promise((r) => setTimeout(r, 100))
  }
  return {
    url,
    startupMs: () => startupMs,
    port,
    dir,
    dbPath,
    child,
    output: () => output,
    async logsSettled() {
      // A CSP report is logged at warn; the log is one pipe, so once this one is read, so is all before it.
      const marker = `/log-settled-${randomUUID()}`
      const res = await fetch(`${url}${PATHS.cspReport}`, {
        method: 'POST',
        headers: { 'content-type': 'application/csp-report', ...NOT_KEPT_ALIVE },
        body: JSON.stringify({ 'csp-report': { 'document-uri': `${url}${marker}`, 'violated-directive': 'img-src' } }),
      })
      if (res.status !== 204) throw new Error(`the CSP report was refused: ${res.status}`)
      const deadline = Date.now() + 10_000
      while (!output.includes(marker)) {
        if (Date.now() > deadline) throw new Error(`the server did not log ${marker}: ${output}`)
        await new Promise((r) => setTimeout(r, 20))
      }
    },
    stop(signal = 'SIGTERM') {
      // A process killed by a signal has signalCode set and exitCode still null.
      if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode)
      return new Promise((resolve) => {
        child.once('exit', (code) => resolve(code))
        child.kill(signal)
      })
    },
    cleanup() {
      fs.rmSync(dir, { recursive: true, force: true })
    },
  }
}
