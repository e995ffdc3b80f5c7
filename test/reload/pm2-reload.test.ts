// Restarts nobody notices: two PM2 cluster workers serve pages and take leads under keep-alive load
// of about 200 requests a second while `pm2 reload` runs five times in a row. Not one request may
// fail, and every acknowledged lead is stored exactly once.
import { execFileSync } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { SQLite } from '../../server/data/sqlite-driver'
import { Agent, request } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ROOT_DIR } from '../../server/config/config'
import { tempDir } from '../helpers/build-test-app'
import { ensureBuild, freePort } from '../helpers/prod-server'

const PM2 = path.join(ROOT_DIR, 'node_modules/pm2/bin/pm2')
const RELOADS = 5
const RATE = 200 // requests a second
const PAGES = ['/', '/structure/', '/structure/product', '/structure/power-tools/', '/missing-page']

let dir: string
let env: NodeJS.ProcessEnv
let base: string

function pm2(...args: string[]): string {
  return execFileSync(process.execPath, [PM2, ...args], { cwd: ROOT_DIR, env, encoding: 'utf8', timeout: 120_000 })
}

beforeAll(async () => {
  ensureBuild()
  dir = tempDir('vitrina-pm2-')
  const port = await freePort()
  base = `http://127.0.0.1:${port}`
  env = {
    ...process.env,
    PM2_HOME: path.join(dir, 'pm2'),
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: base,
    DATABASE_URL: `file:${path.join(dir, 'site.db')}`,
    MEDIA_DIR: path.join(dir, 'media'),
    SEED_DEMO: 'true',
    LEAD_RATE_LIMIT: '0',
    LEAD_MIN_FILL_SECONDS: '0',
    LOG_LEVEL: 'warn',
  }
  pm2('start', 'ecosystem.config.cjs')
  const deadline = Date.now() + 60_000
  for (;;) {
    const ok = await fetch(`${base}/robots.txt`).then(
      (r) => r.ok,
      () => false,
    )
    if (ok) break
    if (Date.now() > deadline)
      throw new Error(`PM2 workers did not start:\n${pm2('logs', '--nostream', '--lines', '50')}`)
    await new Promise((r) => setTimeout(r, 200))
  }
}, 240_000)

afterAll(() => {
  try {
    if (env) pm2('kill')
  } finally {
    if (dir) fs.rmSync(dir, { recursive: true, force: true })
  }
})

interface Outcome {
  readonly kind: 'page' | 'lead'
  readonly ok: boolean
  readonly detail: string
  readonly leadId?: number
}

/** One request of the mix: four pages to one lead, each lead with its own idempotency key. */
async function oneRequest(agent: Agent, n: number): Promise<Outcome> {
  const isLead = n % 5 === 4
  try {
    if (!isLead) {
      const url = PAGES[n % PAGES.length]
      const res = await request(`${base}${url}`, { dispatcher: agent })
      await res.body.dump()
      const expected = url === '/missing-page' ? 404 : 200
      return { kind: 'page', ok: res.statusCode === expected, detail: `GET ${url} ${res.statusCode}` }
    }
    const res = await request(`${base}/api/feedback`, {
      dispatcher: agent,
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': randomUUID() },
      body: JSON.stringify({ username: 'Иван', phone: '+7 (999) 123-45-67', email: 'ivan@example.ru', consent: true }),
    })
    const body = (await res.body.json()) as { data?: { id: number } }
    return { kind: 'lead', ok: res.statusCode === 201, detail: `POST ${res.statusCode}`, leadId: body.data?.id }
  } catch (error) {
    return { kind: isLead ? 'lead' : 'page', ok: false, detail: (error as Error).message }
  }
}

/** Sends RATE requests a second until stopped; resolves with every outcome once all are answered. */
function startLoad(): { stop: () => Promise<Outcome[]> } {
  const agent = new Agent({ connections: 32, keepAliveTimeout: 30_000 })
  const pending: Promise<Outcome>[] = []
  let n = 0
  const started = Date.now()
  const timer = setInterval(() => {
    const due = Math.floor(((Date.now() - started) / 1000) * RATE)
    while (n < due) pending.push(oneRequest(agent, n++))
  }, 5)
  return {
    async stop() {
      clearInterval(timer)
      const outcomes = await Promise.all(pending)
      await agent.close()
      return outcomes
    },
  }
}

describe('pm2 reload under keep-alive load', () => {
  it('fails no request and loses or duplicates no lead over five reloads in a row', async () => {
    const load = startLoad()
    await new Promise((r) => setTimeout(r, 1_000))
    for (let i = 0; i < RELOADS; i++) pm2('reload', 'vitrina')
    await new Promise((r) => setTimeout(r, 1_000))
    const outcomes = await load.stop()
    // Both workers really were replaced five times.
    const workers = JSON.parse(pm2('jlist')) as { pm2_env: { restart_time: number; status: string } }[]
    expect(workers.map((w) => [w.pm2_env.status, w.pm2_env.restart_time])).toEqual([
      ['online', RELOADS],
      ['online', RELOADS],
    ])

    const failed = outcomes.filter((o) => !o.ok)
    const acked = outcomes.filter((o) => o.kind === 'lead' && o.ok).map((o) => o.leadId)
    const db = new SQLite(path.join(dir, 'site.db'), { readonly: true })
    const stored = db.prepare('SELECT id FROM feedback').all() as { id: number }[]
    db.close()
    const summary = {
      requests: outcomes.length,
      pages: outcomes.filter((o) => o.kind === 'page').length,
      leadsAcknowledged: acked.length,
      leadsStored: stored.length,
      failed: failed.length,
    }
    process.stdout.write(`pm2 reload ×${RELOADS}: ${JSON.stringify(summary)}\n`)
    expect(failed.map((o) => o.detail).slice(0, 10)).toEqual([])
    expect(outcomes.length).toBeGreaterThan(RATE * 5)
    expect(stored.map((r) => r.id).sort((a, b) => a - b)).toEqual([...acked].sort((a, b) => a! - b!))
  }, 300_000)
})
