// A second server process on the same database, as a second PM2 worker: `spawnLeadWorker(dir, env)`
// starts this file as a child (the site of `dir`, as buildTestApp made it, with `env` on top), which
// prints the URL it listens on. Tests and benches send leads to it while the first process imports.
import { spawn, type ChildProcess } from 'node:child_process'
import { pathToFileURL } from 'node:url'
import { ROOT_DIR } from '../../server/config/config'

export interface LeadWorker {
  readonly url: string
  readonly child: ChildProcess
  /**
   * The worker sends itself a lead every 20 ms (one at a time) until `done` settles, and reports
   * each one's status and latency as measured inside it: the other process's event loop, not
   * this one's, is in the figure.
   */
  leadsUntil(done: Promise<unknown>): Promise<{ status: number; ms: number }[]>
  stop(): Promise<void>
}

/** A lead as the site's form sends it. */
export const LEAD = { username: 'Иван Петров', phone: '8 999 123-45-67', email: 'ivan@example.ru', consent: true }

export async function spawnLeadWorker(dir: string, env: Record<string, string>): Promise<LeadWorker> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/helpers/lead-worker.ts', dir, JSON.stringify(env)], {
    cwd: ROOT_DIR,
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  })
  const url = await new Promise<string>((resolve, reject) => {
    let out = ''
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      const match = /listening (http:\S+)/.exec(out)
      if (match) resolve(match[1])
    })
    child.once('exit', (code) => reject(new Error(`lead worker exited with ${code}: ${out}`)))
  })
  return {
    url,
    child,
    async leadsUntil(done) {
      const report = new Promise<{ status: number; ms: number }[]>((resolve) =>
        child.once('message', (message) => resolve(message as { status: number; ms: number }[])),
      )
      child.send('start')
      await done.catch(() => {})
      child.send('stop')
      return report
    },
    async stop() {
      if (child.exitCode !== null) return
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.kill('SIGTERM')
      await exited
    },
  }
}

/** Sends a lead; its status and how long it took. */
export async function sendLead(url: string): Promise<{ status: number; ms: number }> {
  const started = performance.now()
  const res = await fetch(`${url}/api/feedback`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(LEAD),
  })
  await res.arrayBuffer()
  return { status: res.status, ms: performance.now() - started }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [dir, env] = process.argv.slice(2)
  const { buildApp } = await import('../../server/app')
  const { testConfig } = await import('./build-test-app')
  const app = await buildApp(testConfig(dir, { LEAD_RATE_LIMIT: '0', ...(JSON.parse(env) as Record<string, string>) }))
  await app.listen({ port: 0, host: '127.0.0.1' })
  const address = app.server.address()
  if (!address || typeof address === 'string') throw new Error('no port')
  const url = `http://127.0.0.1:${address.port}`
  let sending = false
  process.on('message', (message) => {
    if (message === 'stop') sending = false
    if (message !== 'start') return
    sending = true
    void (async () => {
      const leads: { status: number; ms: number }[] = []
      while (sending) {
        leads.push(await sendLead(url).catch(() => ({ status: 0, ms: 0 })))
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
      process.send!(leads)
    })()
  })
  process.stdout.write(`listening ${url}\n`)
  process.once('SIGTERM', () => void app.close().then(() => process.exit(0)))
  // The test that spawned it is gone (a hook that timed out never stops it): so is the worker.
  process.once('disconnect', () => process.exit(0))
}
