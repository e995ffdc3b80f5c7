// What every PostgreSQL session of the site sets (issue 43): `backend_flush_after`, so what a long
// import writes reaches the disk as it goes instead of in the kernel's bursts a lead's commit waited
// behind; an operator's own value in DATABASE_URL stays.
import { sql } from 'kysely'
import { afterEach, describe, expect, it } from 'vitest'
import { openDatabase, type Db } from '../../server/data/db'
import { createTestSchema, TEST_DATABASE_URL, type TestSchema } from '../helpers/postgres'

describe.runIf(TEST_DATABASE_URL)('the site’s PostgreSQL sessions', () => {
  let schema: TestSchema | undefined
  let db: Db | undefined
  afterEach(async () => {
    await db?.destroy()
    await schema?.drop()
  })

  const open = async (url: string) => {
    db = await openDatabase({ kind: 'postgres', url, waitMs: 5000 })
    return db
  }
  /** The setting as `sessions` sessions open at once see it */
  const flushAfter = async (sessions: number) =>
    Promise.all(
      Array.from({ length: sessions }, () =>
        db!.transaction().execute(async (trx) => {
          await sql`SELECT pg_sleep(0.05)`.execute(trx)
          const { rows } = await sql<{ backend_flush_after: string }>`SHOW backend_flush_after`.execute(trx)
          return rows[0].backend_flush_after
        }),
      ),
    )

  it('ask the kernel to write back every 256 kB', async () => {
    schema = await createTestSchema()
    await open(schema.url)
    expect(await flushAfter(3)).toEqual(['256kB', '256kB', '256kB'])
  })

  it('keep the value DATABASE_URL gives', async () => {
    schema = await createTestSchema()
    const url = new URL(schema.url)
    url.searchParams.set('options', `${url.searchParams.get('options')} -c backend_flush_after=0`)
    await open(url.toString())
    expect(await flushAfter(2)).toEqual(['0', '0'])
  })
})
