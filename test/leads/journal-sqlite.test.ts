// SQLite held by another writer past the busy timeout: the lead waits in the journal, the visitor
// is answered with success, and the lead is stored once the lock is gone, exactly once, by the
// journal's own timer (every 2 s) as by a drain called at once. A record the database then
// refuses for good goes to the dead-letter file and the others are stored; past its byte cap the
// journal promises nothing more (503 with Retry-After).
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { encodeRecord } from '../../server/leads/intake/journal'
import type { BuildOptions } from '../../server/app'
import { buildTestApp, collectOutput, type TestApp } from '../helpers/build-test-app'
import { lockDatabase } from '../helpers/sqlite-lock'

const ADMIN_TOKEN = 'journal-admin-token-0123456789'
const lead = { username: 'Вера', phone: '+7 912 345-67-89', email: 'vera@example.ru', consent: true }

let t: TestApp | undefined
afterEach(async () => {
  await t?.close()
  t = undefined
})

async function app(env: Record<string, string> = {}, options: BuildOptions = {}): Promise<TestApp> {
  t = await buildTestApp({ LEAD_RATE_LIMIT: '0', SEED_DEMO: 'false', ADMIN_TOKEN, ...env }, options)
  return t
}

const post = (site: TestApp, payload: object, key: string) =>
  site.app.inject({ method: 'POST', url: '/api/feedback', headers: { 'idempotency-key': key }, payload })

const storedKeys = async (site: TestApp) =>
  (await site.app.db.selectFrom('feedback').select('idempotencyKey').orderBy('id').execute()).map(
    (row) => row.idempotencyKey,
  )

describe('a lead while SQLite is locked by another connection', () => {
  it('is journaled, answered with success, and stored once when the lock is released', async () => {
    const site = await app()
    const release = await lockDatabase(site)
    try {
      const res = await post(site, lead, 'locked-1')
      expect(res.statusCode).toBe(202)
    } finally {
      await release()
    }
    await site.app.leadJournal.drain()
    expect(await storedKeys(site)).toEqual(['locked-1'])
    // Another drain finds nothing left to store: still one lead.
    await site.app.leadJournal.drain()
    expect(await storedKeys(site)).toEqual(['locked-1'])
  })

  it('is stored by the journal’s own timer once the lock is released, with no drain() called', async () => {
    const log = collectOutput()
    const site = await app({ LOG_LEVEL: 'info' }, { logStream: log.out })
    const release = await lockDatabase(site)
    try {
      for (const key of ['timer-1', 'timer-2']) {
        expect((await post(site, { ...lead, email: `${key}@example.ru` }, key)).statusCode).toBe(202)
      }
      // Held until a timed drain has met the lock and kept the leads (every 2 s).
      await expect
        .poll(() => log.text(), { timeout: 10_000, interval: 100 })
        .toContain('lead journal waits for the database')
      expect(site.app.leadJournal.bytes()).toBeGreaterThan(0)
    } finally {
      await release()
    }
    // The next tick of the same timer stores them.
    await expect.poll(() => storedKeys(site), { timeout: 10_000, interval: 100 }).toEqual(['timer-1', 'timer-2'])
    expect(site.app.leadJournal.bytes()).toBe(0)
    expect(log.text()).toContain('lead journal drained into the database')
  })

  it('moves a record the database refuses for good to the dead letters and stores the ones after it', async () => {
    const site = await app()
    expect((await post(site, lead, 'taken-key')).statusCode).toBe(201)
    const release = await lockDatabase(site)
    try {
      // First in line: a record whose key is a stored lead's, with another request (a form page
      // two visitors shared while the database was away).
      const journal = path.join(site.config.leadJournalDir, `leads-${process.pid}.journal`)
      fs.mkdirSync(site.config.leadJournalDir, { recursive: true })
      fs.appendFileSync(
        journal,
        encodeRecord({
          at: new Date().toISOString(),
          lead: { ...lead, username: 'Другой посетитель', email: 'other@example.ru' },
          spam: false,
          idempotencyKey: 'taken-key',
          requestHash: 'f'.repeat(64),
          origin: { sourceUrl: '/', product: null, utm: null },
          consent: { ip: '203.0.113.7', userAgent: null, version: 'label-only' },
        }),
      )
      for (let i = 1; i <= 5; i++) {
        expect((await post(site, { ...lead, email: `after${i}@example.ru` }, `after-${i}`)).statusCode).toBe(202)
      }
    } finally {
      await release()
    }
    await site.app.leadJournal.drain()
    expect(await storedKeys(site)).toEqual(['taken-key', 'after-1', 'after-2', 'after-3', 'after-4', 'after-5'])
    expect(site.app.leadJournal.bytes()).toBe(0)

    const letters = await site.app.inject({
      url: '/api/admin/leads/dead-letters',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    })
    expect(letters.json().data).toEqual([
      expect.objectContaining({ username: 'Другой посетитель', email: 'other@example.ru', phone: lead.phone }),
    ])
    expect(letters.json().data[0].reason).toMatch(/IDEMPOTENCY_KEY_REUSED/)
    const ready = await site.app.inject({ url: '/readyz', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })
    expect(ready.json().journal).toEqual({ bytes: 0, deadLetters: 1 })
  })

  it('answers 503 with Retry-After once the journals hold LEAD_JOURNAL_MAX_MB, and journals nothing more', async () => {
    const site = await app({ LEAD_JOURNAL_MAX_MB: '1' })
    // A live process's journal (pid 1 never dies) already holds the megabyte.
    fs.mkdirSync(site.config.leadJournalDir, { recursive: true })
    fs.writeFileSync(path.join(site.config.leadJournalDir, 'leads-1.journal'), Buffer.alloc(1024 * 1024, 'x'))
    const release = await lockDatabase(site)
    try {
      const res = await post(site, lead, 'over-the-cap')
      expect(res.statusCode).toBe(503)
      expect(res.headers['retry-after']).toBe('60')
      const page = await site.app.inject({
        method: 'POST',
        url: '/api/feedback',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ ...lead, consent: 'on' }).toString(),
      })
      // The no-JS form is not thanked either (the page itself may not render while the database is away).
      expect(page.headers.location).not.toBe('/spasibo')
      expect(page.headers['retry-after']).toBe('60')
      expect(site.app.leadJournal.bytes()).toBe(0)
    } finally {
      await release()
    }
    await site.app.leadJournal.drain()
    expect(await storedKeys(site)).toEqual([])
  })
})
