// Property tests through inject(): whatever arrives, POST /api/feedback answers with one of the
// contract's statuses, never a 500, and a row exists exactly when the answer was 201.
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { anyLeadBody, leadContentType, multipartLead } from '../helpers/arbitraries'
import { buildTestApp, type TestApp } from '../helpers/build-test-app'

const ALLOWED = [201, 400, 413, 415, 429]

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp({ LEAD_RATE_LIMIT: '0', SEED_DEMO: 'false' })
})
afterAll(async () => {
  await t?.close()
})

async function count(): Promise<number> {
  const row = await t.app.db
    .selectFrom('feedback')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

async function check(request: { payload?: string; headers: Record<string, string> }) {
  const before = await count()
  const res = await t.app.inject({ method: 'POST', url: '/api/feedback', ...request })
  const after = await count()
  expect(ALLOWED, `status ${res.statusCode}: ${res.body.slice(0, 200)}`).toContain(res.statusCode)
  expect(after - before).toBe(res.statusCode === 201 ? 1 : 0)
  if (res.statusCode === 201) return
  // The no-JS form gets its page back; every other client gets a Russian JSON error.
  if (res.headers['content-type']?.toString().startsWith('text/html')) expect(res.body).toContain('Оставить заявку')
  else expect(res.json().error.message).toMatch(/[а-яё]/i)
}

describe('POST /api/feedback with any body', () => {
  it('answers JSON bodies with an allowed status and stores exactly the 201s', async () => {
    await fc.assert(
      fc.asyncProperty(anyLeadBody, async (value) => {
        const payload = JSON.stringify(value)
        await check({ payload: payload ?? '', headers: { 'content-type': 'application/json' } })
      }),
      { numRuns: 300 },
    )
  })

  it('answers raw strings under any of the accepted content types the same way', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 300 }), leadContentType, async (payload, contentType) => {
        await check({ payload, headers: contentType ? { 'content-type': contentType } : {} })
      }),
      { numRuns: 300 },
    )
  })

  it('answers multipart bodies with an allowed status and stores exactly the 201s', async () => {
    await fc.assert(
      fc.asyncProperty(multipartLead, async (request) => {
        await check(request)
      }),
      { numRuns: 300 },
    )
  })

  it('stores a valid lead in every urlencoded spelling of the consent box', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('on', 'true'), fc.string({ maxLength: 5 }), async (consent, extra) => {
        const params = new URLSearchParams({ username: 'Иван', phone: '89991234567', email: 'a@b.ru', consent })
        if (extra) params.set(extra, 'x')
        const before = await count()
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/feedback',
          payload: params.toString(),
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        })
        expect([303, 400]).toContain(res.statusCode)
        expect((await count()) - before).toBe(res.statusCode === 303 ? 1 : 0)
      }),
      { numRuns: 40 },
    )
  })
})
