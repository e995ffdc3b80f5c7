// The outbox under faults, with the real server as child processes (the way PM2 runs it): two
// processes on one database, a receiver that is down for a while, and a SIGKILL mid-dispatch.
// Waits longer than a test can sit out (the 30 s backoff, the 2 min lease) are skipped by moving
// the rows' times into the past, as if the time had passed.
import fs from 'node:fs'
import path from 'node:path'
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely'
import pg from 'pg'
import { Webhook } from 'standardwebhooks'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../../server/data/schema'
import { SQLite } from '../../server/data/sqlite-driver'
import { tempDir } from '../helpers/build-test-app'
import { createTestSchema, TEST_DATABASE_URL, type TestSchema } from '../helpers/postgres'
import { ensureBuild, startProdServer, type ProdServer } from '../helpers/prod-server'
import { startHttpReceiver, waitFor, type HttpReceiver } from '../helpers/receivers'
import { startTcpProxy } from '../helpers/tcp-proxy'

const SECRET = `whsec_${Buffer.from('another secret of at least 24 bytes').toString('base64')}`

const cleanups: Array<() => unknown> = []

beforeAll(() => {
  ensureBuild()
}, 180_000)

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

function webhookEnv(url: string): Record<string, string> {
  return { LEAD_RATE_LIMIT: '0', LEAD_WEBHOOK_URL: url, LEAD_WEBHOOK_SECRET: SECRET }
}

async function receiver(): Promise<HttpReceiver> {
  const hook = await startHttpReceiver((request) => String(request.headers['webhook-id']))
  cleanups.push(() => hook.close())
  return hook
}

async function server(env: Record<string, string>, dir?: string): Promise<ProdServer> {
  const started = await startProdServer(env, dir)
  cleanups.push(() => started.stop('SIGKILL'))
  return started
}

/** A database to test against: a SQLite file in a folder, or a fresh PostgreSQL schema. */
interface Store {
  dir: string
  env: Record<string, string>
  db: Kysely<Database>
}

/** The store's folder, removed after the test, once its servers and connections are gone (cleanups run last first). */
function storeDir(): string {
  const dir = tempDir('vitrina-outbox-')
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }))
  return dir
}

async function sqliteStore(): Promise<Store> {
  const dir = storeDir()
  // Opened after the first server has created and migrated the file.
  let db: Kysely<Database> | null = null
  const store: Store = {
    dir,
    env: {},
    get db() {
      db ??= new Kysely<Database>({
        dialect: new SqliteDialect({ database: new SQLite(path.join(dir, 'site.db'), { timeout: 5000 }) }),
      })
      return db
    },
  }
  cleanups.push(() => db?.destroy())
  return store
}

async function postgresStore(): Promise<Store> {
  const dir = storeDir()
  const schema: TestSchema = await createTestSchema()
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: schema.url, max: 2 }) }),
  })
  cleanups.push(() => schema.drop())
  cleanups.push(() => db.destroy())
  return { dir, env: { DATABASE_URL: schema.url }, db }
}

async function postLead(site: ProdServer, n: number): Promise<number> {
  const response = await fetch(`${site.url}/api/feedback`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      username: `Покупатель ${n}`,
      phone: '+7 912 345-67-89',
      email: `buyer${n}@example.ru`,
      consent: true,
    }),
  })
  expect(response.status).toBe(201)
  return ((await response.json()) as { data: { id: number } }).data.id
}

async function statuses(db: Kysely<Database>) {
  return db.selectFrom('leadDelivery').select(['feedbackId', 'status']).execute()
}

async function allSent(db: Kysely<Database>, count: number) {
  const rows = await statuses(db)
  return rows.length === count && rows.every((row) => row.status === 'sent')
}

/** The lead ids the receiver got, each request's signature checked. */
function deliveredIds(hook: HttpReceiver): number[] {
  return hook.requests.map((request) => {
    const payload = new Webhook(SECRET).verify(request.body, request.headers as Record<string, string>) as {
      data: { id: number }
    }
    expect(request.headers['webhook-id']).toBe(`lead-${payload.data.id}`)
    return payload.data.id
  })
}

describe.each([
  ['SQLite', sqliteStore, true],
  ['PostgreSQL', postgresStore, Boolean(TEST_DATABASE_URL)],
] as const)('on %s', (_name, makeStore, available) => {
  it.runIf(available)(
    'two processes on one database never send the same row at the same time',
    async () => {
      const store = await makeStore()
      const hook = await receiver()
      // Slow answers, so two senders of one row would overlap at the receiver.
      hook.fallback = { status: 200, delayMs: 150 }
      const env = { ...store.env, ...webhookEnv(`${hook.url}/hook`) }
      const first = await server(env, store.dir)
      const second = await server(env, store.dir)
      const ids = await Promise.all(Array.from({ length: 30 }, (_, n) => postLead(n % 2 ? first : second, n)))
      await waitFor(() => allSent(store.db, ids.length), 'every delivery sent', 60_000)
      const delivered = deliveredIds(hook)
      expect(delivered.sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b))
      expect(Math.max(...hook.maxInFlight.values())).toBe(1)
    },
    120_000,
  )
})

it('delivers every lead once a receiver that was down is back', async () => {
  const store = await sqliteStore()
  const hook = await receiver()
  const proxy = await startTcpProxy({ host: '127.0.0.1', port: Number(new URL(hook.url).port) })
  cleanups.push(() => proxy.close())
  proxy.cut()
  const site = await server(webhookEnv(`http://127.0.0.1:${proxy.port}/hook`), store.dir)
  const ids = await Promise.all(Array.from({ length: 12 }, (_, n) => postLead(site, n)))
  await waitFor(
    async () => (await store.db.selectFrom('leadDelivery').select('lastError').execute()).every((row) => row.lastError),
    'every first try to fail',
    30_000,
  )
  expect((await statuses(store.db)).every((row) => row.status === 'pending')).toBe(true)
  proxy.heal()
  await store.db
    .updateTable('leadDelivery')
    .set({ nextAttemptAt: new Date(Date.now() - 1000).toISOString() })
    .execute()
  await waitFor(() => allSent(store.db, ids.length), 'every delivery after the outage', 30_000)
  expect(new Set(deliveredIds(hook))).toEqual(new Set(ids))
}, 120_000)

it('delivers every lead at least once after a SIGKILL mid-dispatch, a repeat carrying the same id', async () => {
  const store = await sqliteStore()
  const hook = await receiver()
  // The receiver takes its time, so the kill lands while deliveries are under way.
  hook.fallback = { status: 200, delayMs: 1500 }
  const env = webhookEnv(`${hook.url}/hook`)
  const site = await server(env, store.dir)
  const ids = await Promise.all(Array.from({ length: 15 }, (_, n) => postLead(site, n)))
  await waitFor(() => hook.requests.length > 0, 'the first delivery under way')
  await site.stop('SIGKILL')
  const before = hook.requests.length
  // The killed process's leases run out (2 min), as if that time had passed.
  await store.db
    .updateTable('leadDelivery')
    .set({ leaseUntil: new Date(Date.now() - 1000).toISOString() })
    .where('status', '=', 'pending')
    .execute()
  hook.fallback = { status: 200 }
  await server(env, store.dir)
  await waitFor(() => allSent(store.db, ids.length), 'every delivery after the restart', 60_000)
  const delivered = deliveredIds(hook)
  expect(new Set(delivered)).toEqual(new Set(ids))
  // The ones in flight at the kill went twice: the receiver can tell by the id.
  expect(delivered.length).toBeGreaterThanOrEqual(ids.length)
  expect(before).toBeGreaterThan(0)
}, 120_000)
