// An idempotency key stands for one request: the same form sent again is one lead (200, the first
// lead), but the key sent with another lead is refused with 422 instead of being answered as a
// "repeat" while the second visitor's lead is dropped (two visitors once shared one key through a
// cached form page). The no-JS form then comes back with the values and a fresh key.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TestApp } from '../helpers/build-test-app'
import { DIALECTS } from '../helpers/dialects'

const first = { username: 'Анна', phone: '+7 912 345-67-89', email: 'anna@example.ru', consent: true }
const second = { username: 'Борис', phone: '+7 916 000-11-22', email: 'boris@example.ru', consent: true }
const REUSED = 'Эта форма уже была отправлена с другими данными. Проверьте поля и отправьте заявку ещё раз'

describe.each(DIALECTS)('idempotency keys on $name', (dialect) => {
  let t: TestApp
  beforeAll(async () => {
    if (dialect.available) t = await dialect.build({ LEAD_RATE_LIMIT: '0', LEAD_MIN_FILL_SECONDS: '0' })
  })
  afterAll(async () => {
    await t?.close()
  })

  const post = (payload: object, key: string) =>
    t.app.inject({ method: 'POST', url: '/api/feedback', payload, headers: { 'idempotency-key': key } })
  const form = (fields: Record<string, string>) =>
    t.app.inject({
      method: 'POST',
      url: '/api/feedback',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(fields).toString(),
    })
  const emails = async () =>
    (await t.app.db.selectFrom('feedback').select('email').orderBy('id').execute()).map((row) => row.email)

  it.runIf(dialect.available)(
    'answers the same request again with the first lead, and another request with 422',
    async () => {
      const created = await post(first, 'json-key-1')
      expect(created.statusCode).toBe(201)
      const repeat = await post(first, 'json-key-1')
      expect([repeat.statusCode, repeat.json()]).toEqual([200, created.json()])
      // The same fields in another order are the same request.
      const reordered = await post(
        { consent: true, email: first.email, phone: first.phone, username: first.username },
        'json-key-1',
      )
      expect(reordered.statusCode).toBe(200)

      const other = await post(second, 'json-key-1')
      expect(other.statusCode).toBe(422)
      expect(other.json().error).toEqual({ code: 'idempotency_key_reused', message: REUSED })
      expect((await emails()).filter((email) => email === second.email)).toEqual([])
      // With a key of its own, the second lead is stored.
      expect((await post(second, 'json-key-2')).statusCode).toBe(201)
    },
  )

  it.runIf(dialect.available)(
    'renders the no-JS form again with the values as sent and a fresh key, which then goes through',
    async () => {
      const key = 'shared-form-key'
      const anna = { ...first, email: 'anna.form@example.ru' }
      const boris = { ...second, email: 'boris.form@example.ru' }
      const sent = await form({ ...anna, consent: 'on', idempotencyKey: key, formStartedAt: '1' })
      expect([sent.statusCode, sent.headers.location]).toEqual([303, '/spasibo'])
      // A double click on the same form: the same request, one lead.
      expect((await form({ ...anna, consent: 'on', idempotencyKey: key, formStartedAt: '1' })).statusCode).toBe(303)

      // Another visitor's form that carried the same key (a cached page):
      const page = await form({ ...boris, consent: 'on', idempotencyKey: key, formStartedAt: '1' })
      expect(page.statusCode).toBe(422)
      expect(page.headers['content-type']).toMatch(/^text\/html/)
      expect(page.headers['cache-control']).toBe('no-store')
      expect(page.body).toContain(REUSED)
      expect(page.body).toContain('value="Борис"')
      const fresh = /name="idempotencyKey" value="([^"]+)"/.exec(page.body)?.[1]
      expect(fresh).toBeDefined()
      expect(fresh).not.toBe(key)

      const again = await form({ ...boris, consent: 'on', idempotencyKey: fresh!, formStartedAt: '1' })
      expect([again.statusCode, again.headers.location]).toEqual([303, '/spasibo'])
      const stored = await emails()
      expect(stored.filter((email) => email === anna.email)).toHaveLength(1)
      expect(stored.filter((email) => email === boris.email)).toHaveLength(1)
    },
  )
})
