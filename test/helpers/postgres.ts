// A fresh schema on the PostgreSQL server named by TEST_DATABASE_URL, dropped afterwards.
import { randomBytes } from 'node:crypto'
import pg from 'pg'

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL

export interface TestSchema {
  /** DATABASE_URL whose connections use the new schema */
  url: string
  drop(): Promise<void>
  /** Closes the connection and leaves the schema in place (a bench's BENCH_KEEP) */
  keep(): Promise<void>
}

export async function createTestSchema(): Promise<TestSchema> {
  if (!TEST_DATABASE_URL) throw new Error('TEST_DATABASE_URL is not set')
  const schema = `vitrina_test_${randomBytes(6).toString('hex')}`
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL })
  await admin.connect()
  await admin.query(`CREATE SCHEMA ${schema}`)
  await trigramsInPublic(admin)
  const url = new URL(TEST_DATABASE_URL)
  url.searchParams.set('options', `-c search_path=${schema}`)
  return {
    url: url.toString(),
    async drop() {
      await admin.query(`DROP SCHEMA ${schema} CASCADE`)
      await admin.end()
    },
    async keep() {
      await admin.end()
    },
  }
}

/**
 * pg_trgm (the inbox search's index, migration 019) installed once for the database in `public`:
 * a site's migration would put it in its own schema, where dropping a test's schema would take it,
 * and every other test's index, with it.
 */
async function trigramsInPublic(admin: pg.Client): Promise<void> {
  const installed = async () =>
    (await admin.query(`SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm'`)).rowCount === 1
  if (await installed()) return
  // One creator at a time (a lock of the whole server's tests), so no test sees it half made.
  await admin.query(`SELECT pg_advisory_lock(hashtext('vitrina-test-pg_trgm'))`)
  try {
    if (!(await installed())) await admin.query('CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public')
  } finally {
    await admin.query(`SELECT pg_advisory_unlock(hashtext('vitrina-test-pg_trgm'))`)
  }
}
