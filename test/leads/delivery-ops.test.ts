// What an operator does with lead delivery: watches /healthz and /readyz, lists the deliveries
// that did not go out (npm run leads -- deliveries), puts them back (retry), and backs up: the
// backup taken while leads are being written (npm run backup; pg_dump on PostgreSQL) is restored as
// the README says and serves every lead acknowledged before it started.
import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp, type App } from '../../server/app'
import { SQLite } from '../../server/data/sqlite-driver'
import { backupMain } from '../../server/tools/backup'
import { leadsMain } from '../../server/tools/leads'
import { readToolConfig } from '../../server/tools/tool-config'
import { ADMIN_TOKEN } from '../api/helpers'
import {
  buildTestApp,
  collectOutput as collect,
  listen,
  tempDir,
  testConfig,
  type TestApp,
} from '../helpers/build-test-app'
import { createTestSchema, TEST_DATABASE_URL } from '../helpers/postgres'
import { startHttpReceiver, waitFor, type HttpReceiver } from '../helpers/receivers'

const SECRET = `whsec_${Buffer.from('yet another secret, 24 bytes or more').toString('base64')}`

let hook: HttpReceiver
let site: TestApp
let url: string

beforeAll(async () => {
  hook = await startHttpReceiver()
  site = await buildTestApp({
    ADMIN_TOKEN,
    LEAD_RATE_LIMIT: '0',
    LEAD_WEBHOOK_URL: `${hook.url}/hook`,
    LEAD_WEBHOOK_SECRET: SECRET,
  })
  url = await listen(site)
})

afterAll(async () => {
  await site?.close()
  await hook?.close()
})

async function postLead(email: string): Promise<number> {
  const response = await site.app.inject({
    method: 'POST',
    url: '/api/feedback',
    payload: { username: 'Олег', phone: '8 912 345 67 89', email, consent: true },
  })
  expect(response.statusCode).toBe(201)
  return response.json<{ data: { id: number } }>().data.id
}

async function delivery(leadId: number) {
  return site.app.db.selectFrom('leadDelivery').selectAll().where('feedbackId', '=', leadId).executeTakeFirstOrThrow()
}

describe('health', () => {
  it('answers /healthz while the process runs, uncached', async () => {
    const response = await site.app.inject({ url: '/healthz' })
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({ status: 'ok' })
    expect(response.headers['cache-control']).toBe('no-store')
  })

  it('reports readiness with the outbox backlog and no personal data', async () => {
    hook.answers.push({ status: 503 })
    const id = await postLead('readyz-secret@example.ru')
    await waitFor(async () => (await delivery(id)).lastError !== null, 'the failed try')
    // The details are the owner's (docs/contract.md §2): the admin token shows them.
    const response = await site.app.inject({ url: '/readyz', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })
    expect(response.statusCode).toBe(200)
    expect(response.headers['cache-control']).toBe('no-store')
    const body = response.json<Record<string, any>>()
    expect(body).toMatchObject({ status: 'ready', database: 'ok', pendingMigrations: 0 })
    expect(body.delivery.channels).toEqual(['webhook'])
    expect(body.delivery.pending).toBeGreaterThanOrEqual(1)
    expect(body.delivery.oldestPendingSeconds).toBeGreaterThanOrEqual(0)
    expect(response.body).not.toContain('readyz-secret')
    expect(response.body).not.toContain('Олег')
  })
})

describe('npm run leads -- deliveries | retry', () => {
  it('lists a dead delivery with its error and puts it back in the queue, which delivers it', async () => {
    hook.answers.push({ status: 410 })
    const id = await postLead('dead@example.ru')
    await waitFor(async () => (await delivery(id)).status === 'dead', 'the dead delivery')
    const config = readToolConfig({ VITRINA_URL: url, ADMIN_TOKEN })

    const { id: deliveryId } = await delivery(id)
    const list = collect()
    await leadsMain(['deliveries'], config, list.out)
    const row = list
      .text()
      .split('\n')
      .find((line) => line.startsWith(`${deliveryId} `))
    expect(row).toMatch(new RegExp(`^\\d+\\s+${id}\\s+webhook\\s+dead\\s+1\\s+-\\s+Webhook answered 410$`))
    expect(list.text()).not.toContain('dead@example.ru')

    const retried = collect()
    await leadsMain(['retry', '--dead'], config, retried.out)
    expect(retried.text()).toMatch(new RegExp(`^Queued again: .*\\b${deliveryId}\\b`))
    await waitFor(async () => (await delivery(id)).status === 'sent', 'delivery after the retry')
  })

  it('retries one delivery by id, and refuses without the token or with a bad id', async () => {
    hook.answers.push({ status: 422 })
    const id = await postLead('one@example.ru')
    await waitFor(async () => (await delivery(id)).status === 'dead', 'the dead delivery')
    const { id: deliveryId } = await delivery(id)
    const out = collect()
    await leadsMain(['retry', String(deliveryId)], readToolConfig({ VITRINA_URL: url, ADMIN_TOKEN }), out.out)
    expect(out.text()).toBe(`Queued again: ${deliveryId}\n`)
    await waitFor(async () => (await delivery(id)).status === 'sent', 'delivery after the retry')

    await expect(leadsMain(['deliveries'], readToolConfig({ VITRINA_URL: url }))).rejects.toThrow(/ADMIN_TOKEN/)
    await expect(leadsMain(['retry', 'abc'], readToolConfig({ VITRINA_URL: url, ADMIN_TOKEN }))).rejects.toThrow(
      /delivery ids or --dead/,
    )
    const anonymous = await site.app.inject({ url: '/api/deliveries' })
    expect(anonymous.statusCode).toBe(401)
    const wrong = await site.app.inject({
      url: '/api/deliveries',
      headers: { authorization: 'Bearer wrong-token-123456' },
    })
    expect(wrong.statusCode).toBe(403)
  })
})

const run = promisify(execFile)

interface SentLead {
  readonly id: number
  readonly email: string
}

/**
 * Leads sent by three visitors at once, before, during and after `backup`: the leads acknowledged
 * before it started, and every lead acknowledged.
 */
async function writeLeadsThrough(app: App, backup: () => Promise<void>) {
  await app.ready()
  const acknowledged: SentLead[] = []
  let writing = true
  const writer = async (w: number) => {
    for (let i = 0; writing; i++) {
      const email = `w${w}-${i}@example.ru`
      const res = await app.inject({
        method: 'POST',
        url: '/api/feedback',
        payload: { username: 'Олег', phone: '8 912 345 67 89', email, consent: true },
      })
      expect(res.statusCode).toBe(201)
      acknowledged.push({ id: res.json<{ data: { id: number } }>().data.id, email })
    }
  }
  const writers = [1, 2, 3].map(writer)
  try {
    await expect.poll(() => acknowledged.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(30)
    const before = acknowledged.slice()
    await backup()
    expect(acknowledged.length).toBeGreaterThan(before.length) // written while it ran
    return { before, acknowledged }
  } finally {
    writing = false
    await Promise.all(writers)
  }
}

function restoreMedia(from: string, to: string) {
  fs.rmSync(to, { recursive: true, force: true })
  fs.cpSync(from, to, { recursive: true })
}

/** The restored site starts, holds every lead acknowledged before the backup, and serves. */
async function expectRestored(app: App, before: SentLead[]) {
  await app.ready()
  const rows: SentLead[] = await app.db.selectFrom('feedback').select(['id', 'email']).orderBy('id').execute()
  const stored = new Map(rows.map((row) => [row.id, row.email]))
  expect(before.filter((lead) => stored.get(lead.id) !== lead.email)).toEqual([])

  const page = await app.inject({ url: '/structure/product' })
  expect(page.statusCode).toBe(200)
  const image = /\/media\/[^"'\s)?]+/.exec(page.body)?.[0]
  expect(image).toBeDefined()
  expect((await app.inject({ url: image! })).statusCode).toBe(200)
  const lead = await app.inject({
    method: 'POST',
    url: '/api/feedback',
    payload: { username: 'Олег', phone: '8 912 345 67 89', email: 'after-restore@example.ru', consent: true },
  })
  expect(lead.statusCode).toBe(201)
  expect(stored.has(lead.json<{ data: { id: number } }>().data.id)).toBe(false)
  return rows
}

describe('npm run backup', () => {
  it('copies the database while the site runs, and the copy opens with every lead in it', async () => {
    const id = await postLead('backup@example.ru')
    const dir = tempDir('vitrina-backup-')
    try {
      const out = collect()
      await backupMain(
        [dir],
        { DATABASE_URL: `file:${path.join(site.dir, 'site.db')}`, MEDIA_DIR: site.config.mediaDir },
        out.out,
      )
      const [folder] = fs.readdirSync(dir)
      expect(folder).toMatch(/^vitrina-\d{8}-\d{6}$/)
      expect(out.text()).toContain(`Backup written to ${path.join(dir, folder)}`)
      const copy = new SQLite(path.join(dir, folder, 'site.db'), { readonly: true })
      try {
        const row = copy.prepare('SELECT email FROM feedback WHERE id = ?').get(id) as { email: string }
        expect(row.email).toBe('backup@example.ru')
        expect(copy.pragma('integrity_check', { simple: true })).toBe('ok')
      } finally {
        copy.close()
      }
      // The demo shop's images are in the media folder; the copy has them all.
      const count = (folder: string): number =>
        fs
          .readdirSync(folder, { withFileTypes: true })
          .reduce((n, entry) => n + (entry.isDirectory() ? count(path.join(folder, entry.name)) : 1), 0)
      expect(count(path.join(dir, folder, 'media'))).toBe(count(site.config.mediaDir))
      expect(count(site.config.mediaDir)).toBeGreaterThan(0)
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })

  it('copies the database while leads are being written; restored, it holds every lead acknowledged before and serves', async () => {
    // The site's own data folder, kept across its stop and restart (the restore happens in it).
    const dir = tempDir('vitrina-restore-')
    const backups = tempDir('vitrina-backup-')
    const config = testConfig(dir, { ADMIN_TOKEN, LEAD_RATE_LIMIT: '0' })
    const dbPath = path.join(dir, 'site.db')
    let app: App | null = null
    try {
      app = await buildApp(config)
      const { before, acknowledged } = await writeLeadsThrough(app, () =>
        backupMain([backups], { DATABASE_URL: `file:${dbPath}`, MEDIA_DIR: config.mediaDir }, collect().out),
      )

      // Restore as the README says: stop the site, put site.db at the database path with no
      // -wal or -shm left there and the media folder at MEDIA_DIR, then start it.
      await app.close()
      app = null
      const [folder] = fs.readdirSync(backups)
      const copy = new SQLite(path.join(backups, folder, 'site.db'), { readonly: true })
      try {
        expect(copy.pragma('integrity_check', { simple: true })).toBe('ok')
      } finally {
        copy.close()
      }
      for (const file of [dbPath, `${dbPath}-wal`, `${dbPath}-shm`]) fs.rmSync(file, { force: true })
      fs.copyFileSync(path.join(backups, folder, 'site.db'), dbPath)
      restoreMedia(path.join(backups, folder, 'media'), config.mediaDir)
      // No demo shop on top of it: what serves is what was restored.
      app = await buildApp(testConfig(dir, { ADMIN_TOKEN, SEED_DEMO: 'false' }))
      const rows = await expectRestored(app, before)
      // One moment's copy: leads commit in id order, so it holds every acknowledged lead up to its
      // last one, with no gap, and nothing else.
      const last = rows.at(-1)!.id
      expect(rows).toEqual(acknowledged.filter((lead) => lead.id <= last).sort((a, b) => a.id - b.id))
    } finally {
      await app?.close()
      fs.rmSync(dir, { recursive: true, force: true })
      fs.rmSync(backups, { recursive: true, force: true })
    }
  }, 120_000)

  it.skipIf(!TEST_DATABASE_URL)(
    'on PostgreSQL: pg_dump while leads are being written, pg_restore into an empty database, and it serves them',
    async () => {
      const schema = await createTestSchema()
      const dir = tempDir('vitrina-restore-')
      const backups = tempDir('vitrina-backup-')
      const restoredDb = `vitrina_restored_${randomBytes(6).toString('hex')}`
      const server = new pg.Client({ connectionString: TEST_DATABASE_URL })
      await server.connect()
      let app: App | null = null
      try {
        const config = testConfig(dir, {
          ADMIN_TOKEN,
          LEAD_RATE_LIMIT: '0',
          DATABASE_URL: schema.url,
          SEED_DEMO: 'true',
        })
        app = await buildApp(config)
        const dump = path.join(backups, 'vitrina.dump')
        // The README's lines; --schema keeps the dump to this test's schema of the shared test database.
        const searchPath = new URL(schema.url).searchParams.get('options')!.replace('-c search_path=', '')
        const { before, acknowledged } = await writeLeadsThrough(app, async () => {
          await backupMain([backups], { DATABASE_URL: schema.url, MEDIA_DIR: config.mediaDir }, collect().out)
          await run('pg_dump', ['--format=custom', `--schema=${searchPath}`, `--file=${dump}`, TEST_DATABASE_URL!])
        })
        await app.close()
        app = null

        await server.query(`CREATE DATABASE ${restoredDb}`)
        const target = new URL(TEST_DATABASE_URL!)
        target.pathname = `/${restoredDb}`
        // The README's dump is the whole database and carries the inbox search's pg_trgm (in public);
        // this one is only the test's schema of the shared test database, so the extension comes first.
        const restored = new pg.Client({ connectionString: target.href })
        await restored.connect()
        await restored.query('CREATE EXTENSION IF NOT EXISTS pg_trgm')
        await restored.end()
        await run('pg_restore', ['--no-owner', `--dbname=${target.href}`, dump])
        const [folder] = fs.readdirSync(backups).filter((name) => name.startsWith('vitrina-'))
        restoreMedia(path.join(backups, folder, 'media'), config.mediaDir)
        target.searchParams.set('options', `-c search_path=${searchPath}`)
        app = await buildApp(testConfig(dir, { ADMIN_TOKEN, DATABASE_URL: target.href }))
        const rows = await expectRestored(app, before)
        // Ids are taken before commit on PostgreSQL, so the copy is no id prefix: only leads that were sent.
        const sent = new Set(acknowledged.map((lead) => lead.id))
        expect(rows.filter((row) => !sent.has(row.id))).toEqual([])
      } finally {
        await app?.close()
        await server.query(`DROP DATABASE IF EXISTS ${restoredDb}`)
        await server.end()
        await schema.drop()
        fs.rmSync(dir, { recursive: true, force: true })
        fs.rmSync(backups, { recursive: true, force: true })
      }
    },
    120_000,
  )

  it('refuses to run without a folder', async () => {
    await expect(backupMain([], {})).rejects.toThrow(/usage/)
  })
})
