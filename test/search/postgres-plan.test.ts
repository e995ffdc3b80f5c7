// PostgreSQL search uses its GIN index for every query shape (issue #36): after a large write (a
// few thousand products through the door, as a price list or the import writes them), a rare
// prefix, a rare whole word and a common word are answered from the index (a Bitmap Index Scan
// on search_index_document), never by reading every row of `searchIndex`; and the write leaves
// the planner's statistics current.
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DIALECTS } from '../helpers/dialects'
import type { TestApp } from '../helpers/build-test-app'
import { insertBigCatalogue } from '../helpers/big-catalogue'

const postgres = DIALECTS.find((dialect) => dialect.name === 'PostgreSQL')!

describe.runIf(postgres.available)('the search plan on PostgreSQL', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await postgres.build()
    await insertBigCatalogue(t.app.db, { sections: 3, perSection: 1000, bigSection: 1000 })
  }, 120_000)
  afterAll(() => t?.close())

  /** The plan of a search tier's match, as search-query.ts builds it. */
  const plan = async (tsquery: string) => {
    const { rows } = await sql<{
      'QUERY PLAN': string
    }>`explain select "structureId" as "id" from "searchIndex" where "document" @@ to_tsquery('simple', ${tsquery})`.execute(
      t.app.db,
    )
    return rows.map((row) => row['QUERY PLAN']).join('\n')
  }

  it.each(["'zzq':*", "'zzqx'", "'модель' & 'zzq':*"])('answers %s from the GIN index', async (tsquery) => {
    const text = await plan(tsquery)
    expect(text).toContain('Bitmap Index Scan on search_index_document')
    expect(text).not.toContain('Seq Scan')
  })

  it('leaves the statistics of the search tables current after the write', async () => {
    const { rows } = await sql<{ relname: string; analyzed: boolean }>`
      select relname, last_analyze is not null or last_autoanalyze is not null as analyzed
      from pg_stat_user_tables where schemaname = current_schema() and relname in ('searchIndex', 'searchWord')
      order by relname`.execute(t.app.db)
    expect(rows).toEqual([
      { relname: 'searchIndex', analyzed: true },
      { relname: 'searchWord', analyzed: true },
    ])
  })
})
