// Random queries never break the read API: every answer is JSON, and never a 5xx.
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { stringifyQuery } from '../../src/api/query-string'
import { modelQuery, QUERY_MODELS } from '../helpers/arbitraries'
import { buildTestApp, type TestApp } from '../helpers/build-test-app'
import { ADMIN_TOKEN } from './helpers'

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp({ ADMIN_TOKEN })
})
afterAll(async () => {
  await t?.close()
})

async function check(url: string, headers: Record<string, string> = {}) {
  const res = await t.app.inject({ method: 'GET', url, headers })
  expect(res.statusCode, url).toBeLessThan(500)
  expect(res.headers['content-type'], url).toMatch(/application\/json/)
  expect(() => JSON.parse(res.body)).not.toThrow()
  if (res.statusCode >= 400) expect(res.json().error.message, url).toMatch(/[а-яА-ЯёЁ]/)
}

describe('random queries', () => {
  it('answer structured query objects with JSON and no 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('', 'many/', 'provider/'),
        fc.constantFrom(...QUERY_MODELS),
        modelQuery,
        fc.boolean(),
        async (prefix, model, q, admin) => {
          await check(
            `/api/${prefix}${model}?${stringifyQuery({ query: q })}`,
            admin ? { authorization: `Bearer ${ADMIN_TOKEN}` } : {},
          )
        },
      ),
      { numRuns: 300 },
    )
  })

  it('answer arbitrary JSON values and arbitrary strings as the query with JSON and no 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.jsonValue().map((v) => JSON.stringify(v)),
          fc.string({ maxLength: 40 }),
          fc.string({ unit: 'grapheme', maxLength: 20 }),
        ),
        fc.option(fc.string({ maxLength: 5 })),
        async (text, ttl) => {
          await check(`/api/many/structure?${stringifyQuery({ query: text, ttl: ttl ?? undefined })}`)
        },
      ),
      { numRuns: 300 },
    )
  })

  it('answer raw query strings and bracket forms with JSON and no 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 60 }), async (raw) => {
        const safe = raw.replace(/[^\x21-\x7e]/g, (c) => encodeURIComponent(c)).replace(/#/g, '%23')
        await check(`/api/many/structure?query${safe}`)
        await check(`/api/structure?${safe}`)
      }),
      { numRuns: 200 },
    )
  })
})
