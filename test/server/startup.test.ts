// Start-up that fails safe: the real entry point (server/main.ts) with a database it cannot use
// stops with one line saying what to check, and never serves a new demo shop by mistake.
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { ROOT_DIR } from '../../server/config/config'
import { buildTestApp, tempDir, type TestApp } from '../helpers/build-test-app'
import { freePort } from '../helpers/prod-server'
import { createTestSchema, TEST_DATABASE_URL } from '../helpers/postgres'
import { startTcpProxy } from '../helpers/tcp-proxy'

interface Started {
  code: number | null
  stdout: string
  stderr: string
  ms: number
}

/** Runs `server/main.ts` until it exits or prints its running line (then stops it). */
function runMain(env: Record<string, string>): Promise<Started> {
  const started = Date.now()
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      cwd: ROOT_DIR,
      env: { ...process.env, NODE_ENV: 'development', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString()
      if (stdout.includes('Vitrina is running at')) child.kill('SIGTERM')
    })
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    child.on('exit', (code) => resolve({ code, stdout, stderr, ms: Date.now() - started }))
  })
}

let dir: string
let site: TestApp | undefined

afterEach(async () => {
  await site?.close()
  site = undefined
  if (dir) fs.rmSync(dir, { recursive: true, force: true })
})

describe('a SQLite path the operator named', () => {
  it('stops the start with one line when its folder does not exist, and creates nothing', async () => {
    dir = tempDir('vitrina-start-')
    const file = path.join(dir, 'typo', 'site.db')
    const run = await runMain({ PORT: String(await freePort()), DATABASE_URL: `file:${file}` })
    expect(run.code).toBe(1)
    expect(run.stderr.trim().split('\n')).toEqual([
      `Vitrina failed to start: DATABASE_URL names ${file}, but the folder ${path.dirname(file)} does not exist`,
    ])
    expect(fs.existsSync(path.dirname(file))).toBe(false)
  })

  it('is not filled with the demo shop unless SEED_DEMO asks for it', async () => {
    site = await buildTestApp({ SEED_DEMO: '' })
    const home = await site.app.inject({ method: 'GET', url: '/' })
    expect(home.statusCode).toBe(404)
    expect(await site.app.db.selectFrom('structure').select('id').execute()).toEqual([])
  })
})

describe.skipIf(!TEST_DATABASE_URL)('an unreachable PostgreSQL', () => {
  it('is waited for a bounded time, then the start stops naming the host and what to check, never the password', async () => {
    const port = await freePort() // nothing listens there
    const run = await runMain({
      PORT: String(await freePort()),
      DATABASE_URL: `postgres://shop:hunter2secret@127.0.0.1:${port}/shop`,
      DATABASE_WAIT_SECONDS: '2',
    })
    expect(run.code).toBe(1)
    const lines = run.stderr.trim().split('\n')
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(
      new RegExp(
        `^Vitrina failed to start: Cannot reach PostgreSQL at 127\\.0\\.0\\.1:${port}/shop \\(DATABASE_URL\\) for 2 s`,
      ),
    )
    expect(lines[0]).toContain('Check that the server runs')
    expect(run.stderr + run.stdout).not.toContain('hunter2secret')
    expect(run.ms).toBeGreaterThanOrEqual(1500)
  })

  it('starts once a server that was down comes up within the wait, with no restart', async () => {
    const target = new URL(TEST_DATABASE_URL!)
    const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) })
    proxy.cut()
    const schema = await createTestSchema()
    const url = new URL(schema.url)
    url.host = `127.0.0.1:${proxy.port}`
    setTimeout(() => proxy.heal(), 1500)
    try {
      const run = await runMain({ PORT: String(await freePort()), DATABASE_URL: url.href, DATABASE_WAIT_SECONDS: '30' })
      expect(run.stdout, run.stderr).toContain('Vitrina is running at http://')
      expect(run.ms).toBeGreaterThanOrEqual(1500)
    } finally {
      await proxy.close()
      await schema.drop()
    }
  })

  it('fails at once, without waiting, when the server refuses the login', async () => {
    const url = new URL(TEST_DATABASE_URL!)
    url.pathname = '/no_such_database_for_vitrina'
    const run = await runMain({ PORT: String(await freePort()), DATABASE_URL: url.href, DATABASE_WAIT_SECONDS: '60' })
    expect(run.code).toBe(1)
    expect(run.stderr.trim().split('\n')).toHaveLength(1)
    expect(run.stderr).toContain('(DATABASE_URL) refused the connection')
    expect(run.stderr).toContain('Check the user, password and database name')
  })
})
