// POST /api/feedback through inject(): what each kind of request gets, and what is stored.
// The field rules themselves are unit-tested in src/lead; here the route's own behaviour.
import fs from 'node:fs'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { consentVersion } from '../../server/leads/store/lead-store'
import { fillOperator } from '../../server/content/documents'
import { multipartBody } from '../helpers/multipart'
import { buildTestApp, type TestApp } from '../helpers/build-test-app'
import { lockDatabase } from '../helpers/sqlite-lock'

const lead = { username: 'Иван Петров', phone: '8 999 123-45-67', email: 'ivan@example.ru', consent: true }
const FORM = 'application/x-www-form-urlencoded'

function form(fields: Record<string, string>) {
  return { headers: { 'content-type': FORM }, payload: new URLSearchParams(fields).toString() }
}

describe('POST /api/feedback', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await buildTestApp({ LEAD_RATE_LIMIT: '0' })
  })
  afterAll(async () => {
    await t?.close()
  })

  const post = (options: { payload?: unknown; headers?: Record<string, string> }) =>
    t.app.inject({ method: 'POST', url: '/api/feedback', ...options } as never)
  const rows = () => t.app.db.selectFrom('feedback').selectAll().orderBy('id').execute()
  const rowById = (id: number) =>
    t.app.db.selectFrom('feedback').selectAll().where('id', '=', id).executeTakeFirstOrThrow()

  it('stores a complete lead with its consent record and answers 201 with the id', async () => {
    const res = await post({ payload: lead, headers: { 'user-agent': 'Тестовый браузер/1.0' } })
    expect(res.statusCode).toBe(201)
    const { data } = res.json()
    expect(data).toEqual({ id: expect.any(Number), createdAt: expect.any(String) })
    const row = await rowById(data.id)
    expect(row).toMatchObject({
      username: 'Иван Петров',
      phone: '8 999 123-45-67',
      phoneE164: '+79991234567',
      email: 'ivan@example.ru',
      createdAt: data.createdAt,
      consentAt: data.createdAt,
      consentIp: '127.0.0.1',
      consentUserAgent: 'Тестовый браузер/1.0',
      spam: 0,
      idempotencyKey: null,
    })
    const page = await t.app.db
      .selectFrom('structure')
      .select(['title', 'content'])
      .where('urlFull', '=', '/soglasie')
      .executeTakeFirstOrThrow()
    // The version of the text as the visitor read it: the operator's details filled in (none set here).
    const shown = fillOperator(page.content ?? '', { name: '', inn: '', address: '' })
    expect(row.consentVersion).toBe(consentVersion(page.title, shown))
  })

  it('keeps a phone that is not Russian as typed, without an E.164 form', async () => {
    const res = await post({ payload: { ...lead, phone: '+44 20 7946 0958' } })
    expect(res.statusCode).toBe(201)
    expect(await rowById(res.json().data.id)).toMatchObject({ phone: '+44 20 7946 0958', phoneE164: null })
  })

  it('refuses an incomplete Russian or international phone with the Russian message, and stores nothing', async () => {
    const before = (await rows()).length
    for (const phone of ['+7 999 123-45-6', '8 (999) 123-45', '+44 20 7946', '+1 234 567 890 123 456']) {
      const res = await post({ payload: { ...lead, phone } })
      expect(res.statusCode, phone).toBe(400)
      expect(res.json().errors).toEqual({
        phone: 'Номер телефона неполный: для России нужно 11 цифр, для других стран — от 10 до 15',
      })
    }
    expect((await rows()).length).toBe(before)
    for (const phone of ['+7 999 123-45-67', '8 (999) 123-45-67', '+44 20 7946 0958', '+86 138 0013 8000']) {
      expect((await post({ payload: { ...lead, phone } })).statusCode, phone).toBe(201)
    }
  })

  it('trims the values it stores', async () => {
    const res = await post({ payload: { ...lead, username: '  Иван  ' } })
    expect((await rowById(res.json().data.id)).username).toBe('Иван')
  })

  it('reports every missing field at once, in Russian, and stores nothing', async () => {
    const before = (await rows()).length
    const res = await post({ payload: { consent: true } })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({
      error: { code: 'bad_request', message: 'Некорректный запрос' },
      errors: { username: 'Поле обязательно', phone: 'Поле обязательно', email: 'Поле обязательно' },
    })
    expect(await post({ payload: {} }).then((r) => r.json().errors)).toEqual({
      username: 'Поле обязательно',
      phone: 'Поле обязательно',
      email: 'Поле обязательно',
      consent: 'Поле обязательно',
    })
    expect((await rows()).length).toBe(before)
  })

  it('refuses an extra field with 400 naming it, instead of dropping it', async () => {
    const res = await post({ payload: { ...lead, isAdmin: true } })
    expect(res.statusCode).toBe(400)
    expect(res.json().errors).toEqual({ isAdmin: 'Неизвестное поле недопустимо' })
  })

  it('refuses a lead without consent', async () => {
    const res = await post({ payload: { ...lead, consent: false } })
    expect(res.statusCode).toBe(400)
    expect(res.json().errors).toEqual({ consent: 'Поле обязательно' })
  })

  it('rejects malformed JSON and a body that is not an object with 400', async () => {
    expect((await post({ payload: '{"username":', headers: { 'content-type': 'application/json' } })).statusCode).toBe(
      400,
    )
    const res = await post({ payload: '[1,2]', headers: { 'content-type': 'application/json' } })
    expect(res.statusCode).toBe(400)
    expect(res.json().errors).toEqual({ _form: 'Значение должно быть объектом' })
  })

  it('accepts multipart with the lead as JSON in the field data', async () => {
    const res = await post(multipartBody({ data: JSON.stringify(lead) }))
    expect(res.statusCode).toBe(201)
    expect(await rowById(res.json().data.id)).toMatchObject({ username: 'Иван Петров', phoneE164: '+79991234567' })
  })

  it('names unknown multipart fields and files, and rejects data that is not JSON', async () => {
    const extra = await post(
      multipartBody({ data: JSON.stringify(lead), note: 'x' }, [
        { name: 'photo', filename: 'a.txt', contentType: 'text/plain', bytes: Buffer.from('abc') },
      ]),
    )
    expect(extra.statusCode).toBe(400)
    expect(extra.json().errors).toEqual({ note: 'Неизвестное поле недопустимо', photo: 'Неизвестное поле недопустимо' })
    const broken = await post(multipartBody({ data: '{nope' }))
    expect(broken.statusCode).toBe(400)
    expect(broken.json().errors).toEqual({ data: 'Значение недопустимо' })
    const empty = await post(multipartBody({}))
    expect(empty.statusCode).toBe(400)
    expect(Object.keys(empty.json().errors)).toEqual(['username', 'phone', 'email', 'consent'])
  })

  it('takes the no-JS form urlencoded and answers 303 to the thank-you page', async () => {
    const res = await post(
      form({
        username: 'Мария',
        phone: '+7 (916) 000-11-22',
        email: 'maria@example.ru',
        consent: 'on',
        website: '',
        formStartedAt: String(Date.now() - 60_000),
      }),
    )
    expect(res.statusCode).toBe(303)
    expect(res.headers.location).toBe('/spasibo')
    const last = (await rows()).at(-1)!
    expect(last).toMatchObject({ username: 'Мария', phoneE164: '+79160001122', spam: 0 })
  })

  it('renders the form page back to a no-JS visitor with the messages and the typed values, not JSON', async () => {
    const res = await post(
      form({ username: 'Мария', phone: '', email: 'maria@example', website: '', formStartedAt: '1' }),
    )
    expect(res.statusCode).toBe(400)
    expect(res.headers['content-type']).toMatch(/^text\/html/)
    expect(res.headers['cache-control']).toBe('no-store')
    expect(res.body).toContain('Поле обязательно')
    expect(res.body).toContain('Некорректный адрес электронной почты')
    expect(res.body).toContain('value="Мария"')
    expect(res.body).toContain('value="maria@example"')
  })

  it('answers 413 to a body over 16 KB', async () => {
    const json = await post({ payload: { ...lead, username: 'я'.repeat(20_000) } })
    expect(json.statusCode).toBe(413)
    expect(json.json().error.code).toBe('payload_too_large')
    const parts = await post(multipartBody({ data: JSON.stringify({ ...lead, username: 'я'.repeat(20_000) }) }))
    expect(parts.statusCode).toBe(413)
  })

  it('answers 415 to other content types, text/plain included', async () => {
    for (const type of ['text/plain', 'application/xml', 'application/octet-stream']) {
      const res = await post({ payload: JSON.stringify(lead), headers: { 'content-type': type } })
      expect(res.statusCode, type).toBe(415)
      expect(res.json().error.message).toBe('Неподдерживаемый тип содержимого')
    }
  })

  it('stores a bot that filled the honeypot as spam behind a normal 201', async () => {
    const res = await post({ payload: { ...lead, website: 'http://spam.example' } })
    expect(res.statusCode).toBe(201)
    expect((await rowById(res.json().data.id)).spam).toBe(1)
  })

  it('stores a form sent faster than a person can fill it as spam behind a normal 201', async () => {
    const fast = await post({ payload: { ...lead, formStartedAt: Date.now() - 500 } })
    expect(fast.statusCode).toBe(201)
    expect((await rowById(fast.json().data.id)).spam).toBe(1)
    const human = await post({ payload: { ...lead, formStartedAt: Date.now() - 20_000 } })
    expect((await rowById(human.json().data.id)).spam).toBe(0)
    // A browser clock running ahead of the server's is not a bot.
    const ahead = await post({ payload: { ...lead, formStartedAt: Date.now() + 120_000 } })
    expect((await rowById(ahead.json().data.id)).spam).toBe(0)
  })

  it('stores one lead for a repeated idempotency key and answers the repeat with 200 and the first id', async () => {
    const before = (await rows()).length
    const headers = { 'idempotency-key': 'form-7f3c2a' }
    const first = await post({ payload: lead, headers })
    const again = await post({ payload: lead, headers })
    expect(first.statusCode).toBe(201)
    expect(again.statusCode).toBe(200)
    expect(again.json()).toEqual(first.json())
    expect((await rows()).length).toBe(before + 1)
    const field = await post(form({ ...lead, consent: 'on', idempotencyKey: 'form-7f3c2a' }))
    expect(field.statusCode).toBe(303)
    expect((await rows()).length).toBe(before + 1)
  })

  it('refuses an idempotency key that is not printable ASCII up to 128 characters', async () => {
    const res = await post({ payload: lead, headers: { 'idempotency-key': 'x'.repeat(129) } })
    expect(res.statusCode).toBe(400)
    expect(res.json().errors).toEqual({ 'Idempotency-Key': 'Значение недопустимо' })
  })

  it('serves the consent text and its version for the consent dialog', async () => {
    const res = await t.app.inject({ url: '/api/lead-consent?path=/structure/' })
    expect(res.statusCode).toBe(200)
    const { data } = res.json()
    expect(data).toMatchObject({ url: '/soglasie', title: 'Согласие на обработку персональных данных' })
    expect(data.version).toBe(consentVersion(data.title, data.content))
  })

  it('journals a lead while the database is busy, answers success, and stores it once the database is back', async () => {
    const before = (await rows()).length
    const release = await lockDatabase(t)
    try {
      const res = await post({ payload: { ...lead, email: 'journal@example.ru' } })
      expect(res.statusCode).toBe(202)
      expect(res.json().data.id).toBeNull()
      const page = await post(form({ ...lead, email: 'journal-form@example.ru', consent: 'on' }))
      expect([page.statusCode, page.headers.location]).toEqual([303, '/spasibo'])
    } finally {
      await release()
    }
    expect((await rows()).length).toBe(before)
    await t.app.leadJournal.drain()
    const emails = (await rows()).map((row) => row.email)
    expect(emails.filter((email) => email === 'journal@example.ru')).toHaveLength(1)
    expect(emails.filter((email) => email === 'journal-form@example.ru')).toHaveLength(1)
  })

  it('answers 500 and acknowledges nothing when the database fails for a reason other than being away', async () => {
    const before = (await rows()).length
    await sql`CREATE TRIGGER feedback_fail BEFORE INSERT ON feedback BEGIN SELECT RAISE(ABORT, 'refused by a trigger'); END`.execute(
      t.app.db,
    )
    try {
      const res = await post({ payload: { ...lead, email: 'trigger@example.ru' } })
      expect(res.statusCode).toBe(500)
      expect(res.json().error.message).toBe('Не удалось сохранить заявку. Попробуйте ещё раз или позвоните нам')
      const page = await post(form({ ...lead, consent: 'on' }))
      expect(page.statusCode).toBe(500)
      expect(page.body).toContain('value="Иван Петров"')
    } finally {
      await sql`DROP TRIGGER feedback_fail`.execute(t.app.db)
    }
    // Not journaled either: nothing waits to be stored later, nothing was promised.
    expect(t.app.leadJournal.bytes()).toBe(0)
    await t.app.leadJournal.drain()
    expect((await rows()).length).toBe(before)
  })

  it('answers 503 with Retry-After and Russian text, and writes nothing, when neither the database nor the journal can', async () => {
    const before = (await rows()).length
    const journalDir = t.config.leadJournalDir
    fs.rmSync(journalDir, { recursive: true, force: true })
    fs.writeFileSync(journalDir, 'not a folder') // the disk cannot take the journal either
    const release = await lockDatabase(t)
    try {
      const res = await post({ payload: lead })
      expect(res.statusCode).toBe(503)
      expect(res.headers['retry-after']).toBe('60')
      expect(res.json().error).toEqual({
        code: 'unavailable',
        message: 'Не удалось сохранить заявку. Попробуйте ещё раз или позвоните нам',
      })
      const page = await post(form({ ...lead, consent: 'on' }))
      expect(page.statusCode).toBe(503)
      expect(page.body).toContain('Не удалось отправить заявку. Попробуйте ещё раз или позвоните нам')
      expect(page.body).toContain('value="Иван Петров"')
    } finally {
      await release()
      fs.rmSync(journalDir, { force: true })
    }
    expect((await rows()).length).toBe(before)
    expect((await post({ payload: lead })).statusCode).toBe(201)
  })

  it('leaves the other API paths alone', async () => {
    expect((await t.app.inject({ method: 'POST', url: '/api/feedback/x', payload: lead })).statusCode).toBe(404)
  })
})

describe('the rate limit of POST /api/feedback', () => {
  it('answers 429 in Russian after LEAD_RATE_LIMIT requests a minute from one address', async () => {
    const t = await buildTestApp({ LEAD_RATE_LIMIT: '3', SEED_DEMO: 'false' })
    try {
      const post = (headers: Record<string, string> = {}) =>
        t.app.inject({ method: 'POST', url: '/api/feedback', payload: lead, headers })
      for (let i = 0; i < 3; i++) expect((await post()).statusCode).toBe(201)
      const limited = await post()
      expect(limited.statusCode).toBe(429)
      expect(limited.json().error).toEqual({
        code: 'rate_limited',
        message: 'Слишком много заявок подряд. Попробуйте через минуту или позвоните нам',
      })
      expect(limited.headers['retry-after']).toBeDefined()
      // Without a trusted proxy, a forged X-Forwarded-For is no way around the limit.
      expect((await post({ 'x-forwarded-for': '203.0.113.9' })).statusCode).toBe(429)
      expect(
        await t.app.db
          .selectFrom('feedback')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirst(),
      ).toEqual({ n: 3 })
    } finally {
      await t.close()
    }
  })

  it('counts each client behind a trusted proxy on its own', async () => {
    const t = await buildTestApp({ LEAD_RATE_LIMIT: '1', SEED_DEMO: 'false', TRUST_PROXY: '127.0.0.1' })
    try {
      const post = (ip: string) =>
        t.app.inject({ method: 'POST', url: '/api/feedback', payload: lead, headers: { 'x-forwarded-for': ip } })
      expect((await post('198.51.100.1')).statusCode).toBe(201)
      expect((await post('198.51.100.1')).statusCode).toBe(429)
      const other = await post('198.51.100.2')
      expect(other.statusCode).toBe(201)
      const row = await t.app.db
        .selectFrom('feedback')
        .select('consentIp')
        .where('id', '=', other.json().data.id)
        .executeTakeFirstOrThrow()
      expect(row.consentIp).toBe('198.51.100.2')
    } finally {
      await t.close()
    }
  })
})
