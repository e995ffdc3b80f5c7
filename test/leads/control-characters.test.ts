// A control character in a lead or in content: refused with a Russian message before anything is
// stored or promised, on SQLite and on PostgreSQL (which refuses a NUL itself, SQLSTATE 22021, and
// once made the intake journal a lead it could never store). Line breaks stay allowed where a
// text has lines; 4-byte characters at the length limits are kept whole.
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_TOKEN, AUTH } from '../api/helpers'
import type { TestApp } from '../helpers/build-test-app'
import { DIALECTS } from '../helpers/dialects'
import { multipartBody } from '../helpers/multipart'

const lead = { username: 'Иван Петров', phone: '+7 912 345-67-89', email: 'ivan@example.ru', consent: true }
const SINGLE_LINE = 'Уберите переносы строк и невидимые управляющие символы'
const MULTI_LINE = 'Уберите невидимые управляющие символы'

/** One of each kind the rule refuses in a single-line field. */
const FORBIDDEN = {
  NUL: '\u0000',
  'C0 (bell)': '\u0007',
  tab: '\t',
  'line feed': '\n',
  'carriage return': '\r',
  DEL: '\u007f',
  'C1 (NEL)': '\u0085',
  'C1 (CSI)': '\u009b',
  'line separator': '\u2028',
  'paragraph separator': '\u2029',
  'lone high surrogate': '\ud83d',
  'lone low surrogate': '\ude00',
}

describe.each(DIALECTS)('control characters on $name', (dialect) => {
  let t: TestApp
  beforeAll(async () => {
    if (dialect.available) t = await dialect.build({ LEAD_RATE_LIMIT: '0', ADMIN_TOKEN })
  })
  afterAll(async () => {
    await t?.close()
  })

  const post = (payload: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: '/api/feedback', payload: payload as object, headers })
  const count = async () =>
    Number(
      (
        await t.app.db
          .selectFrom('feedback')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    )

  it.runIf(dialect.available)(
    'refuses each of them in every lead field in Russian, storing and journaling nothing, and keeps 4-byte characters whole',
    async () => {
      const before = await count()
      for (const [name, char] of Object.entries(FORBIDDEN)) {
        for (const field of ['username', 'phone', 'email'] as const) {
          const value =
            field === 'email' ? `iv${char}an@example.ru` : `${lead[field].slice(0, 3)}${char}${lead[field].slice(3)}`
          const res = await post({ ...lead, [field]: value })
          expect(res.statusCode, `${name} in ${field}`).toBe(400)
          expect(res.json().errors, `${name} in ${field}`).toEqual({ [field]: SINGLE_LINE })
        }
        const source = await post({ ...lead, sourceUrl: `/catalog${char}`, utm: { utm_source: `ya${char}` } })
        expect(source.json().errors, name).toEqual({ sourceUrl: SINGLE_LINE, 'utm.utm_source': SINGLE_LINE })
      }
      expect(await count()).toBe(before)
      expect(t.app.leadJournal.bytes()).toBe(0)
      // What the rule lets through: 4-byte characters up to the limit, direction marks.
      const emoji = '😀'.repeat(190) // 190 characters, 380 UTF-16 units, 760 bytes
      const res = await post({ ...lead, username: emoji })
      expect(res.statusCode).toBe(201)
      const rtl = await post({ ...lead, username: '\u200fמשה\u200e Иван' })
      expect(rtl.statusCode).toBe(201)
      const rows = await t.app.db
        .selectFrom('feedback')
        .select(['id', 'username'])
        .where('id', 'in', [res.json().data.id, rtl.json().data.id])
        .orderBy('id')
        .execute()
      expect(rows.map((row) => row.username)).toEqual([emoji, '\u200fמשה\u200e Иван'])
      expect((await post({ ...lead, username: `${emoji}😀` })).json().errors).toEqual({
        username: 'Не более 190 символов',
      })
    },
  )

  it.runIf(dialect.available)('refuses a line break from the no-JS form and a NUL in a multipart body', async () => {
    const page = await t.app.inject({
      method: 'POST',
      url: '/api/feedback',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        ...lead,
        username: 'Иван\nСтраница: https://evil.example',
        consent: 'on',
      }).toString(),
    })
    expect(page.statusCode).toBe(400)
    expect(page.headers['content-type']).toMatch(/^text\/html/)
    expect(page.body).toContain(SINGLE_LINE)
    const body = multipartBody({ data: JSON.stringify({ ...lead, username: 'a\u0000b' }) })
    const parts = await post(body.payload, body.headers)
    expect([parts.statusCode, parts.json().errors]).toEqual([400, { username: SINGLE_LINE }])
  })

  it.runIf(dialect.available)('cuts a long user agent to its column and keeps it on one line', async () => {
    const res = await post(lead, { 'user-agent': `Mozilla/5.0\t${'x'.repeat(5000)}` })
    expect(res.statusCode).toBe(201)
    const row = await t.app.db
      .selectFrom('feedback')
      .select('consentUserAgent')
      .where('id', '=', res.json().data.id)
      .executeTakeFirstOrThrow()
    expect(row.consentUserAgent).toBe(`Mozilla/5.0 ${'x'.repeat(988)}`)
  })

  it.runIf(dialect.available)(
    'answers 400 for a value the database refuses, and 500 for any other storage failure, journaling neither',
    async () => {
      const before = await count()
      const refuse = async (sqlState: string, expected: number) => {
        if (dialect.name === 'PostgreSQL') {
          await sql
            .raw(
              `create function refuse_lead() returns trigger language plpgsql as $$ begin raise exception 'refused' using errcode = '${sqlState}'; end $$;
             create trigger refuse_lead before insert on feedback for each row execute function refuse_lead();`,
            )
            .execute(t.app.db)
        } else {
          // SQLite's RAISE cannot choose a code: only the "anything else" case is made here.
          if (expected === 400) return
          await sql`create trigger refuse_lead before insert on feedback begin select raise(abort, 'refused'); end`.execute(
            t.app.db,
          )
        }
        try {
          const res = await post(lead)
          expect(res.statusCode, sqlState).toBe(expected)
          expect(res.json().error.message).toMatch(
            expected === 400 ? /недопустимые символы/ : /Не удалось сохранить заявку/,
          )
        } finally {
          await sql
            .raw(
              `drop trigger refuse_lead${dialect.name === 'PostgreSQL' ? ' on feedback; drop function refuse_lead()' : ''}`,
            )
            .execute(t.app.db)
        }
      }
      await refuse('22021', 400) // a character the database cannot hold
      await refuse('P0001', 500) // a failure of ours
      expect(await count()).toBe(before)
      expect(t.app.leadJournal.bytes()).toBe(0)
    },
  )

  it.runIf(dialect.available)(
    'refuses control characters in content writes: one line for titles, line breaks and tabs in texts',
    async () => {
      const write = (data: Record<string, unknown>) => {
        const body = multipartBody({ data: JSON.stringify(data) })
        return t.app.inject({
          method: 'POST',
          url: '/api/structure',
          payload: body.payload,
          headers: { ...AUTH, ...body.headers },
        })
      }
      const page = { typeId: 'page', parentId: 1, published: true }
      const title = await write({ ...page, title: 'О\nнас', urlFull: '/o-nas-1' })
      expect(title.statusCode).toBe(400)
      expect(title.json().errors).toEqual({ title: SINGLE_LINE })
      const url = await write({ ...page, title: 'О нас', urlFull: '/o-nas\u0000' })
      expect(url.json().errors).toMatchObject({ urlFull: SINGLE_LINE })
      const nul = await write({ ...page, title: 'О нас', urlFull: '/o-nas-2', content: 'Текст\u0000' })
      expect(nul.json().errors).toEqual({ content: MULTI_LINE })
      const lines = await write({
        ...page,
        title: 'О нас',
        urlFull: '/o-nas-3',
        content: 'Абзац один.\r\n\tАбзац два.',
      })
      expect(lines.statusCode).toBe(201)
      expect(lines.json().data.content).toBe('Абзац один.\r\n\tАбзац два.')
      const telBody = multipartBody({ data: JSON.stringify({ structureId: 1, tel: '+7 495\u2028123-45-67' }) })
      const tel = await t.app.inject({
        method: 'PATCH',
        url: '/api/index',
        payload: telBody.payload,
        headers: { ...AUTH, ...telBody.headers },
      })
      expect(tel.json().errors).toEqual({ tel: SINGLE_LINE })
    },
  )
})
