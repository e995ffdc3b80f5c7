// The inbox's search by an index (issue #36, migration 019, docs/decisions/030-search.md), on
// SQLite and PostgreSQL: the same leads as the substring scan found, for every kind of term (short,
// rare, common, a phone, FTS5 and LIKE syntax); a person erased leaves no trace in the index; and
// the database reads the index to find a rare term (its plan names it).
import { CompiledQuery, sql } from 'kysely'
import { afterEach, describe, expect, it } from 'vitest'
import type { AdminLeadPage } from '../../src/admin/admin-leads'
import { LEAD_TABS, type LeadTab } from '../../src/admin/admin-leads'
import type { Db } from '../../server/data/db'
import { isSqlite } from '../../server/data/sql/dialect'
import { leadMatchesQuery } from '../../server/leads/store/lead-search-query'
import { leadSearchNeedle } from '../../server/leads/store/lead-search'
import type { TestApp } from '../helpers/build-test-app'
import { DIALECTS } from '../helpers/dialects'
import { insertManyLeads } from '../helpers/many-leads'

const TOKEN = 'a-test-admin-token-0123'
const auth = { authorization: `Bearer ${TOKEN}` }
const SNOWMAN = { username: 'Снеговик ☃☃☃', email: 'qjvzx@snow.example', phone: '+7 (916) 555-01-02' }

async function inbox(t: TestApp, tab: LeadTab, q: string, pageSize = 20): Promise<AdminLeadPage> {
  const response = await t.app.inject({
    url: `/api/admin/leads?tab=${tab}&pageSize=${pageSize}&q=${encodeURIComponent(q)}`,
    headers: auth,
  })
  expect(response.statusCode, response.body).toBe(200)
  return response.json<AdminLeadPage>()
}

async function sendLead(t: TestApp, lead: typeof SNOWMAN) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/feedback',
    payload: { ...lead, consent: true, sourceUrl: '/' },
  })
  expect(response.statusCode, response.body).toBe(201)
}

/** What the search must answer: every lead whose search text contains the needle, by a plain scan here. */
async function expected(db: Db, q: string, tab: LeadTab, pageSize: number) {
  const needle = leadSearchNeedle(q)!
  const rows = await db.selectFrom('feedback').select(['id', 'createdAt', 'spam', 'status', 'searchText']).execute()
  const matches = rows.filter((row) => (row.searchText ?? '').includes(needle))
  const inTab = (row: (typeof rows)[number], name: LeadTab) =>
    name === 'spam' ? row.spam === 1 : row.spam === 0 && row.status === name
  const counts = Object.fromEntries(
    LEAD_TABS.map((name) => [name, Math.min(matches.filter((row) => inTab(row, name)).length, 1000)]),
  )
  const page = matches
    .filter((row) => inTab(row, tab))
    .sort((a, b) => (a.createdAt === b.createdAt ? b.id - a.id : a.createdAt < b.createdAt ? 1 : -1))
    .slice(0, pageSize)
    .map((row) => row.id)
  return { counts, page }
}

/** The plan the database chooses for the query that gathers a term's matches. */
async function planOf(db: Db, needle: string): Promise<string> {
  const compiled = leadMatchesQuery(db, needle, 2001).compile(db)
  const explain = isSqlite(db) ? 'EXPLAIN QUERY PLAN ' : 'EXPLAIN '
  const result = await db.executeQuery(CompiledQuery.raw(explain + compiled.sql, [...compiled.parameters]))
  return JSON.stringify(result.rows)
}

describe.each(DIALECTS)('the inbox search by an index on $name', (dialect) => {
  let t: TestApp | null = null
  afterEach(async () => {
    await t?.close()
    t = null
  })

  it.skipIf(!dialect.available)(
    'finds exactly the leads whose name, e-mail or phone contains the term, whatever the term',
    async () => {
      t = await dialect.build({ ADMIN_TOKEN: TOKEN, LEAD_RATE_LIMIT: '0' })
      await insertManyLeads(t.app.db, 2600)
      await sendLead(t, SNOWMAN)
      await sendLead(t, { username: 'Анна "кавычки" 100%_', email: 'near@x.example', phone: '+7 916 000-00-01' })
      const queries = [
        'покупатель 12', // rare: a few dozen leads
        'buyer2501@', // one lead
        'example.ru', // nearly every lead: more than the search gathers
        'Покупатель', // upper case folds
        '12', // shorter than a trigram
        'я', // one letter
        '8 900 000-12-34', // a phone typed another way
        '9000001', // digits
        '☃☃☃',
        'QJVZX@SNOW',
        '"кавычки"',
        '100%_',
        '%',
        '_',
        'NEAR(a b)',
        'buyer* OR 1',
        'x"y',
        '\u0000анна',
        'нет такого',
      ]
      for (const q of queries) {
        for (const tab of ['new', 'spam'] as const) {
          const page = await inbox(t, tab, q)
          const want = await expected(t.app.db, q, tab, 20)
          expect(
            page.data.map((lead) => lead.id),
            `${q} in ${tab}`,
          ).toEqual(want.page)
          expect(page.counts, `${q}: counts`).toEqual(want.counts)
        }
      }
      const snowman = await inbox(t, 'new', '☃☃☃')
      expect(snowman.data.map((lead) => lead.username)).toEqual([SNOWMAN.username])
    },
    120_000,
  )

  it.skipIf(!dialect.available)('forgets an erased person in the index too', async () => {
    t = await dialect.build({ ADMIN_TOKEN: TOKEN, LEAD_RATE_LIMIT: '0' })
    const db = t.app.db
    await insertManyLeads(db, 50)
    await sendLead(t, SNOWMAN)
    const other = { username: 'Оксана ◈◈◈', email: 'wvkpq@other.example', phone: '+7 (916) 555-03-04' }
    await sendLead(t, other)
    expect((await inbox(t, 'new', '☃☃☃')).data).toHaveLength(1)
    expect((await inbox(t, 'new', 'wvkpq')).data).toHaveLength(1)
    if (isSqlite(db)) {
      // The index's own pages hold the character before the erase (so the check below can see it;
      // terms share prefixes in a page, a character of its own is in every one of its trigrams).
      expect(await ftsPagesHold(db, '☃')).toBe(true)
      expect(await ftsPagesHold(db, '◈')).toBe(true)
    }

    for (const [person, mode] of [
      [SNOWMAN, 'delete'],
      [other, 'anonymise'],
    ] as const) {
      const erase = await t.app.inject({
        method: 'POST',
        url: '/api/admin/privacy/subject/erase',
        headers: auth,
        payload: { q: person.phone, mode },
      })
      expect(erase.statusCode, erase.body).toBe(200)
      expect(erase.json()).toMatchObject({ data: { leads: 1 } })
    }

    for (const q of ['☃☃☃', 'qjvzx', 'снеговик', '◈◈◈', 'wvkpq', 'оксана', '5550304']) {
      expect((await inbox(t, 'new', q)).data, q).toEqual([])
    }
    if (isSqlite(db)) {
      // Not only unreachable: gone from the index's pages (FTS5 secure-delete), no delete marker
      // left in front of it until a merge.
      expect(await ftsPagesHold(db, '☃')).toBe(false)
      expect(await ftsPagesHold(db, '◈')).toBe(false)
      const { rows } = await sql<{
        id: number
      }>`select rowid as id from "feedbackSearch" where "feedbackSearch" match '"wvkpq"' or "feedbackSearch" match '"qjvzx"'`.execute(
        db,
      )
      expect(rows).toEqual([])
    } else {
      // The index answers for the erased values with no row (a vacuum later reclaims the space).
      await sql`vacuum feedback`.execute(db)
      const { rows } = await sql<{
        n: number
      }>`select count(*)::int as n from feedback where "searchText" like '%wvkpq%' or "searchText" like '%qjvzx%'`.execute(
        db,
      )
      expect(rows[0].n).toBe(0)
    }
    // The others are still found.
    expect((await inbox(t, 'new', 'покупатель 3')).data.length).toBeGreaterThan(0)
  })

  it.skipIf(!dialect.available)(
    'reads the index to find a rare term',
    async () => {
      t = await dialect.build({ ADMIN_TOKEN: TOKEN, LEAD_RATE_LIMIT: '0' })
      const db = t.app.db
      await insertManyLeads(db, 20_000)
      if (!isSqlite(db)) await sql`analyze feedback`.execute(db)
      for (const needle of ['покупатель 12345', '9000012345', 'buyer777@']) {
        const plan = await planOf(db, needle)
        if (isSqlite(db)) expect(plan, needle).toMatch(/SCAN s VIRTUAL TABLE INDEX \d+:M/)
        else expect(plan, needle).toContain('Bitmap Index Scan on feedback_search_trgm')
      }
      expect((await inbox(t, 'new', 'покупатель 12345')).data.map((lead) => lead.username)).toEqual([
        'Покупатель 12345',
      ])
    },
    120_000,
  )
})

/** Whether the bytes of a text are anywhere in the FTS5 table's stored pages (SQLite). */
async function ftsPagesHold(db: Db, term: string): Promise<boolean> {
  const { rows } = await sql<{ block: Uint8Array | null }>`select block from "feedbackSearch_data"`.execute(db)
  const bytes = Buffer.from(term)
  return rows.some((row) => row.block !== null && Buffer.from(row.block).includes(bytes))
}
