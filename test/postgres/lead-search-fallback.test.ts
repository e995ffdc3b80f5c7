// A PostgreSQL that refuses pg_trgm (a hosted server allowing only some extensions, a user without
// the right): the site still starts, says once at start that the inbox search has no index, and
// the search answers by its scan (migration 019, docs/decisions/030-search.md).
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AdminLeadPage } from '../../src/admin/admin-leads'
import { buildTestApp, collectOutput, type TestApp } from '../helpers/build-test-app'
import { TEST_DATABASE_URL } from '../helpers/postgres'

const TOKEN = 'a-test-admin-token-0123'

describe.runIf(TEST_DATABASE_URL)('the inbox search where PostgreSQL refuses pg_trgm', () => {
  const name = `vitrina_noext_${randomBytes(5).toString('hex')}`
  let admin: pg.Client
  let t: TestApp | null = null
  const log = collectOutput()

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: TEST_DATABASE_URL })
    await admin.connect()
    // A database of its own without the extension, and a user who may not create one there.
    await admin.query(`CREATE ROLE ${name} LOGIN`)
    await admin.query(`CREATE DATABASE ${name}`)
    await admin.query(`REVOKE CREATE ON DATABASE ${name} FROM PUBLIC`)
    const owner = new pg.Client({ connectionString: withDatabase(TEST_DATABASE_URL!, name) })
    await owner.connect()
    await owner.query(`CREATE SCHEMA site AUTHORIZATION ${name}`)
    await owner.end()
  })

  afterAll(async () => {
    await t?.close()
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    await admin.query(`DROP ROLE IF EXISTS ${name}`)
    await admin.end()
  })

  it('starts, warns that the search scans, and finds leads all the same', async () => {
    const url = new URL(withDatabase(TEST_DATABASE_URL!, name))
    url.username = name
    url.searchParams.set('options', '-c search_path=site')
    t = await buildTestApp(
      { DATABASE_URL: url.toString(), ADMIN_TOKEN: TOKEN, LEAD_RATE_LIMIT: '0', LOG_LEVEL: 'warn' },
      { logStream: log.out },
    )
    expect(log.text()).toContain('CREATE EXTENSION pg_trgm')
    const { rows } = await admin.query(`SELECT 1 FROM pg_database WHERE datname = $1`, [name])
    expect(rows).toHaveLength(1)

    const sent = await t.app.inject({
      method: 'POST',
      url: '/api/feedback',
      payload: { username: 'Фёкла Рябинина', phone: '+7 916 222-33-44', email: 'fekla@example.ru', consent: true },
    })
    expect(sent.statusCode, sent.body).toBe(201)
    const found = await t.app.inject({
      url: `/api/admin/leads?tab=new&q=${encodeURIComponent('рябинин')}`,
      headers: { authorization: `Bearer ${TOKEN}` },
    })
    expect(found.statusCode, found.body).toBe(200)
    expect(found.json<AdminLeadPage>().data.map((lead) => lead.username)).toEqual(['Фёкла Рябинина'])
  })
})

function withDatabase(base: string, database: string): string {
  const url = new URL(base)
  url.pathname = `/${database}`
  return url.toString()
}
