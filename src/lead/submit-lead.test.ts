import { describe, expect, it } from 'vitest'
import { newIdempotencyKey, reachLeadGoal, submitLead } from './submit-lead'

const lead = { username: 'Иван', phone: '+7 (999) 123-45-67', email: 'ivan@example.ru', consent: true as const }
const extras = { idempotencyKey: 'key-1', website: '', formStartedAt: 1_700_000_000_000 }

function fakeFetch(status: number, body: unknown, calls: RequestInit[] = []): typeof fetch {
  return (async (_url: string, init: RequestInit) => {
    calls.push(init)
    return new Response(body === undefined ? null : JSON.stringify(body), { status })
  }) as typeof fetch
}

describe('submitLead', () => {
  it('posts the lead as JSON with the idempotency key in the header', async () => {
    const calls: RequestInit[] = []
    await submitLead(lead, extras, fakeFetch(201, { data: { id: 7, createdAt: 'x' } }, calls))
    expect(calls[0].method).toBe('POST')
    expect(calls[0].headers).toMatchObject({ 'content-type': 'application/json', 'idempotency-key': 'key-1' })
    expect(JSON.parse(calls[0].body as string)).toEqual({ ...lead, website: '', formStartedAt: 1_700_000_000_000 })
  })

  it('tells a new lead (201) from a repeat of the same form (200)', async () => {
    expect(await submitLead(lead, extras, fakeFetch(201, { data: { id: 7 } }))).toEqual({ kind: 'created', id: 7 })
    expect(await submitLead(lead, extras, fakeFetch(200, { data: { id: 7 } }))).toEqual({ kind: 'repeated', id: 7 })
  })

  it('hands field messages of a 400 to the form', async () => {
    const outcome = await submitLead(
      lead,
      extras,
      fakeFetch(400, { error: {}, errors: { email: 'Некорректный адрес электронной почты' } }),
    )
    expect(outcome).toEqual({ kind: 'invalid', errors: { email: 'Некорректный адрес электронной почты' } })
  })

  it('tells the form when its key was used for a lead with other values (422)', async () => {
    const answer = { error: { code: 'idempotency_key_reused', message: 'Эта форма уже была отправлена…' } }
    expect(await submitLead(lead, extras, fakeFetch(422, answer))).toEqual({ kind: 'reused' })
  })

  it('reports a failure for the network, 5xx, 429 and unreadable answers', async () => {
    const down = (async () => {
      throw new TypeError('Failed to fetch')
    }) as unknown as typeof fetch
    expect(await submitLead(lead, extras, down)).toEqual({ kind: 'failed', status: null })
    expect(await submitLead(lead, extras, fakeFetch(503, { error: {} }))).toEqual({ kind: 'failed', status: 503 })
    expect(await submitLead(lead, extras, fakeFetch(429, { error: {} }))).toEqual({ kind: 'failed', status: 429 })
    expect(await submitLead(lead, extras, fakeFetch(400, { error: {} }))).toEqual({ kind: 'failed', status: 400 })
    expect(await submitLead(lead, extras, fakeFetch(201, undefined))).toEqual({ kind: 'failed', status: 201 })
  })
})

describe('newIdempotencyKey', () => {
  it('makes a different printable key each time', () => {
    const keys = new Set(Array.from({ length: 50 }, newIdempotencyKey))
    expect(keys.size).toBe(50)
    for (const key of keys) expect(key).toMatch(/^[!-~]{16,128}$/)
  })
})

describe('reachLeadGoal', () => {
  it('does nothing without a counter id or without Metrika loaded', () => {
    expect(() => reachLeadGoal(null)).not.toThrow()
    expect(() => reachLeadGoal(123)).not.toThrow()
  })
})
