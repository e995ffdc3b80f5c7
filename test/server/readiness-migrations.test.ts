// /readyz says "unavailable" while the database lacks a migration this release knows, and tells the
// owner how many: a migration row removed (or the whole table gone) is a schema the release cannot
// trust. On PostgreSQL each site reads its own schema's record, not a neighbour's in the same database.
import { sql } from 'kysely'
import { afterAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../helpers/build-test-app'
import { createTestSchema, TEST_DATABASE_URL, type TestSchema } from '../helpers/postgres'
import { removeDir } from '../admin/admin-helpers'

const ADMIN_TOKEN = 'readiness-admin-token-0123456789'
const owner = { authorization: `Bearer ${ADMIN_TOKEN}` }

const sites: TestApp[] = []
const schemas: TestSchema[] = []
afterAll(async () => {
  for (const site of sites) {
    await site.close()
    removeDir(site.dir)
  }
  for (const schema of schemas) await schema.drop()
})

async function site(env: Record<string, string> = {}): Promise<TestApp> {
  const t = await buildTestApp({ ADMIN_TOKEN, SEED_DEMO: 'false', ...env })
  sites.push(t)
  return t
}

async function ready(t: TestApp) {
  const response = await t.app.inject({ url: '/readyz', headers: owner })
  return { status: response.statusCode, pending: response.json().pendingMigrations as number | undefined }
}

async function forget(t: TestApp, migrations: number): Promise<void> {
  const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name desc`.execute(t.app.db)
  for (const { name } of rows.slice(0, migrations)) {
    await sql`delete from kysely_migration where name = ${name}`.execute(t.app.db)
  }
}

describe('a migration the database has not run', () => {
  it('makes a SQLite site unavailable, and counts what is missing', async () => {
    const t = await site()
    expect(await ready(t)).toEqual({ status: 200, pending: 0 })
    await forget(t, 2)
    expect(await ready(t)).toEqual({ status: 503, pending: 2 })
    await sql`drop table kysely_migration`.execute(t.app.db)
    const { status, pending } = await ready(t)
    expect(status).toBe(503)
    expect(pending).toBeGreaterThan(30)
  })

  it.skipIf(!TEST_DATABASE_URL)('is read from the PostgreSQL site’s own schema, not a neighbour’s', async () => {
    const [mine, neighbours] = [await createTestSchema(), await createTestSchema()]
    schemas.push(mine, neighbours)
    const t = await site({ DATABASE_URL: mine.url })
    const neighbour = await site({ DATABASE_URL: neighbours.url })
    expect(await ready(t)).toEqual({ status: 200, pending: 0 })
    await forget(neighbour, 1)
    expect(await ready(neighbour)).toEqual({ status: 503, pending: 1 })
    expect(await ready(t)).toEqual({ status: 200, pending: 0 })
    await forget(t, 3)
    expect(await ready(t)).toEqual({ status: 503, pending: 3 })
    expect(await ready(neighbour)).toEqual({ status: 503, pending: 1 })
  })
})
