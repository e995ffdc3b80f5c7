// Retention (LEAD_RETENTION_DAYS) with the clock moved forward, on SQLite and PostgreSQL: leads
// past the period lose their personal data and delivery rows, newer ones are untouched, exactly
// one of two processes on the same database runs the daily job, the audit log records it, and the
// back office's API says when the next run is due and what the last did.
import { afterEach, describe, expect, it } from 'vitest'
import { storeLead } from '../../server/leads/store/lead-store'
import type { TestApp } from '../helpers/build-test-app'
import { DIALECTS } from '../helpers/dialects'
import { waitFor } from '../helpers/receivers'

const DAY = 24 * 3600 * 1000

describe.each(DIALECTS)('retention on $name', (dialect) => {
  const apps: TestApp[] = []
  afterEach(async () => {
    while (apps.length > 0) await apps.pop()!.close()
  })

  it.skipIf(!dialect.available)('anonymises leads past the period once, keeps newer ones, and logs it', async () => {
    const start = Date.now()
    let clock = new Date(start)
    const now = () => clock
    const env = { LEAD_RETENTION_DAYS: '365', LEAD_RATE_LIMIT: '0', ADMIN_TOKEN: 'a-test-admin-token-0123' }
    const first = await dialect.build(env, { now })
    apps.push(first)
    const db = first.app.db
    // The start-up check made the job's row and ran once, with nothing to do yet.
    await waitFor(async () => (await first.app.privacy.retention.status()).lastRunAt !== null, 'the first check')

    const posted = await first.app.inject({
      method: 'POST',
      url: '/api/feedback',
      headers: { 'user-agent': 'Mozilla/5.0 (Old visitor)' },
      payload: {
        username: 'Пётр Старый',
        phone: '8 916 111-22-33',
        email: 'old@example.ru',
        consent: true,
        sourceUrl: '/',
      },
    })
    expect(posted.statusCode).toBe(201)
    const oldId = posted.json<{ data: { id: number } }>().data.id
    await db
      .insertInto('leadDelivery')
      .values({
        feedbackId: oldId,
        channel: 'email',
        status: 'dead',
        nextAttemptAt: new Date(start).toISOString(),
        giveUpAt: new Date(start).toISOString(),
        lastError: 'SMTP 550',
        createdAt: new Date(start).toISOString(),
      })
      .execute()
    await db.updateTable('feedback').set({ status: 'closed' }).where('id', '=', oldId).execute()

    // 300 days later another visitor sends a lead.
    clock = new Date(start + 300 * DAY)
    const newer = await storeLead(db, {
      at: clock.toISOString(),
      lead: { username: 'Анна Новая', phone: '+7 916 444-55-66', email: 'new@example.ru', consent: true },
      consent: { ip: '203.0.113.7', userAgent: 'Mozilla/5.0 (New visitor)', version: 'sha256:0123456789abcdef' },
      spam: false,
      idempotencyKey: null,
      origin: { sourceUrl: '/', product: null, utm: null },
      channels: [],
    })
    if (newer.status !== 'created') throw new Error('not stored')

    // A year and 35 days after the first lead, two processes check at once: one runs the job.
    clock = new Date(start + 400 * DAY)
    const second = await dialect.build(
      {
        ...env,
        DATABASE_URL:
          first.config.database.kind === 'sqlite' ? `file:${first.config.database.path}` : first.config.database.url,
        SEED_DEMO: 'false',
      },
      { now },
    )
    apps.push(second)
    await Promise.all([first.app.privacy.check(), second.app.privacy.check(), second.app.privacy.check()])

    const old = await db.selectFrom('feedback').selectAll().where('id', '=', oldId).executeTakeFirstOrThrow()
    expect(old).toMatchObject({
      username: 'Данные удалены',
      phone: '',
      email: '',
      phoneE164: null,
      consentIp: null,
      consentUserAgent: null,
      searchText: null,
      status: 'closed',
      sourceUrl: '/',
      anonymizedAt: clock.toISOString(),
    })
    expect(old.consentVersion).toMatch(/^(sha256:|label-only)/)
    expect(await db.selectFrom('leadDelivery').select('id').where('feedbackId', '=', oldId).execute()).toEqual([])

    const kept = await db.selectFrom('feedback').selectAll().where('id', '=', newer.id).executeTakeFirstOrThrow()
    expect(kept).toMatchObject({
      username: 'Анна Новая',
      email: 'new@example.ru',
      phoneE164: '+79164445566',
      consentIp: '203.0.113.7',
      anonymizedAt: null,
    })

    const runs = await db.selectFrom('privacyAudit').selectAll().where('action', '=', 'retention.run').execute()
    expect(runs).toHaveLength(2) // the start-up run and today's, not one per process
    expect(JSON.parse(runs[1].detail)).toMatchObject({ leads: 1, deliveries: 1, days: 365 })

    const answer = await first.app.inject({
      method: 'GET',
      url: '/api/admin/privacy',
      headers: { authorization: 'Bearer a-test-admin-token-0123' },
    })
    expect(answer.statusCode).toBe(200)
    const { retention } = answer.json<{ data: { retention: Record<string, unknown> } }>().data
    expect(retention).toMatchObject({
      days: 365,
      lastRunAt: clock.toISOString(),
      nextRunAt: new Date(clock.getTime() + DAY).toISOString(),
      lastResult: { leads: 1, deliveries: 1 },
    })

    // Not due again the same day.
    expect(await first.app.privacy.retention.runIfDue()).toBeNull()
  })

  it.skipIf(!dialect.available)('keeps every lead with LEAD_RETENTION_DAYS=0', async () => {
    let clock = new Date()
    const t = await dialect.build({ LEAD_RETENTION_DAYS: '0', LEAD_RATE_LIMIT: '0' }, { now: () => clock })
    apps.push(t)
    const posted = await t.app.inject({
      method: 'POST',
      url: '/api/feedback',
      payload: { username: 'Пётр', phone: '89161112233', email: 'p@example.ru', consent: true },
    })
    expect(posted.statusCode).toBe(201)
    clock = new Date(Date.now() + 5000 * DAY)
    await t.app.privacy.check()
    const row = await t.app.db.selectFrom('feedback').select(['username', 'anonymizedAt']).executeTakeFirstOrThrow()
    expect(row).toEqual({ username: 'Пётр', anonymizedAt: null })
    expect((await t.app.privacy.retention.status()).nextRunAt).toBeNull()
  })
})
