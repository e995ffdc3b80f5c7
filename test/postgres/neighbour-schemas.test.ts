// Two sites may share one PostgreSQL database, each in its own schema (DATABASE_URL's search_path).
// One site's schema being dropped must not touch the other: the other still starts (its migration
// looks for its own tables) and its /readyz still says ready. Kysely's stock introspection read
// every schema's tables and failed with «schema "…" does not exist» when one vanished during the
// read (decision 048): about one drop in two failed a readiness check or a start.
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp } from '../helpers/build-test-app'
import { createTestSchema, TEST_DATABASE_URL } from '../helpers/postgres'

/** How many neighbour schemas, each with a site's worth of tables, are made and dropped meanwhile */
const DROPS = 20

describe.skipIf(!TEST_DATABASE_URL)('a neighbour schema dropped while a site starts and is checked', () => {
  let admin: pg.Client

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: TEST_DATABASE_URL })
    await admin.connect()
  })
  afterAll(async () => {
    await admin?.end()
  })

  /** Makes and drops neighbour schemas one after another until `drops` have gone, or `stop()` is called */
  function churn(prefix: string, drops: number) {
    let stopped = false
    let dropped = 0
    const done = (async () => {
      while (!stopped && dropped < drops) {
        const schema = `${prefix}_${dropped}`
        const tables = Array.from(
          { length: 40 },
          (_, i) => `CREATE TABLE ${schema}.t${i} (id serial PRIMARY KEY, name text, price bigint, note text)`,
        )
        await admin.query(`CREATE SCHEMA ${schema}; ${tables.join('; ')}`)
        await admin.query(`DROP SCHEMA ${schema} CASCADE`)
        dropped++
      }
    })()
    return {
      done,
      get dropped() {
        return dropped
      },
      stop: () => {
        stopped = true
        return done
      },
    }
  }

  it('keeps answering ready while another schema comes and goes', async () => {
    const own = await createTestSchema()
    const t = await buildTestApp({ DATABASE_URL: own.url })
    const neighbours = churn(`vitrina_neighbour_${process.pid}_ready`, DROPS)
    const answers = new Map<number, number>()
    try {
      while (neighbours.dropped < DROPS) {
        const { statusCode } = await t.app.inject({ method: 'GET', url: '/readyz' })
        answers.set(statusCode, (answers.get(statusCode) ?? 0) + 1)
      }
      await neighbours.done
    } finally {
      await neighbours.stop()
      await t.close()
      await own.drop()
    }
    expect([...answers.keys()]).toEqual([200])
  })

  it('starts, migrating its own schema from nothing, while another schema comes and goes', async () => {
    const neighbours = churn(`vitrina_neighbour_${process.pid}_start`, Number.POSITIVE_INFINITY)
    const failures: string[] = []
    try {
      for (let start = 0; start < 3; start++) {
        const own = await createTestSchema()
        try {
          const t = await buildTestApp({ DATABASE_URL: own.url })
          const ready = await t.app.inject({ method: 'GET', url: '/readyz' })
          if (ready.statusCode !== 200) failures.push(`start ${start}: /readyz ${ready.statusCode}`)
          await t.close()
        } catch (error) {
          failures.push(`start ${start}: ${(error as Error).message}`)
        } finally {
          await own.drop()
        }
      }
    } finally {
      await neighbours.stop()
    }
    expect(neighbours.dropped).toBeGreaterThan(0)
    expect(failures).toEqual([])
  })
})
