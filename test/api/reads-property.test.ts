// Random queries never break the read API: every answer is JSON, and never a 5xx.
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { stringifyQuery } from '../../src/api/query-string'
import { buildTestApp, type TestApp } from '../helpers/build-test-app'
import { ADMIN_TOKEN } from './helpers'

let t: TestApp
beforeAll(async () => { t = await buildTestApp({ ADMIN_TOKEN }) })
afterAll(async () => { await t?.close() })

const MODELS = ['structure', 'index', 'product', 'sliderItems', 'advantages', 'orderType', 'feedback', 'Feedback', 'nope']
const FIELDS = ['id', 'parentId', 'typeId', 'title', 'urlFull', 'sort', 'published', 'image', 'price', 'structureId', 'children', 'parent', 'product', 'index', 'sliderItems', 'advantages', 'foo', '__proto__', 'constructor']
const OPS = ['equals', 'not', 'in', 'notIn', 'lt', 'lte', 'gt', 'gte', 'contains', 'startsWith', 'AND', 'OR', 'NOT', 'some', 'mode']
const key = fc.oneof(fc.constantFrom(...FIELDS, ...OPS, 'select', 'where', 'orderBy', 'take', 'skip'), fc.string({ maxLength: 6 }))
const leaf = fc.oneof(fc.boolean(), fc.integer(), fc.double(), fc.string({ maxLength: 8 }), fc.constant(null), fc.constantFrom('asc', 'desc', 'index', '%', '_'))
const { tree } = fc.letrec((tie) => ({
  tree: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, fc.array(tie('tree'), { maxLength: 3 }), fc.dictionary(key, tie('tree'), { maxKeys: 4 })),
}))
const query = fc.record({
  select: fc.option(fc.dictionary(fc.constantFrom(...FIELDS), fc.oneof(fc.boolean(), tree), { maxKeys: 4 }), { nil: undefined }),
  where: fc.option(fc.dictionary(key, tree, { maxKeys: 4 }), { nil: undefined }),
  orderBy: fc.option(tree, { nil: undefined }),
  take: fc.option(fc.oneof(fc.integer({ min: -5, max: 1000 }), leaf), { nil: undefined }),
  skip: fc.option(fc.oneof(fc.integer({ min: -5, max: 1000 }), leaf), { nil: undefined }),
}, { requiredKeys: [] })

async function check(url: string, headers: Record<string, string> = {}) {
  const res = await t.app.inject({ method: 'GET', url, headers })
  expect(res.statusCode, url).toBeLessThan(500)
  expect(res.headers['content-type'], url).toMatch(/application\/json/)
  expect(() => JSON.parse(res.body)).not.toThrow()
  if (res.statusCode >= 400) expect(res.json().error.message, url).toMatch(/[а-яА-ЯёЁ]/)
}

describe('random queries', () => {
  it('answer structured query objects with JSON and no 5xx', async () => {
    await fc.assert(fc.asyncProperty(fc.constantFrom('', 'many/', 'provider/'), fc.constantFrom(...MODELS), query, fc.boolean(),
      async (prefix, model, q, admin) => {
        await check(`/api/${prefix}${model}?${stringifyQuery({ query: q })}`, admin ? { authorization: `Bearer ${ADMIN_TOKEN}` } : {})
      }), { numRuns: 300 })
  })

  it('answer arbitrary JSON values and arbitrary strings as the query with JSON and no 5xx', async () => {
    await fc.assert(fc.asyncProperty(fc.oneof(fc.jsonValue().map((v) => JSON.stringify(v)), fc.string({ maxLength: 40 }), fc.string({ unit: 'grapheme', maxLength: 20 })), fc.option(fc.string({ maxLength: 5 })),
      async (text, ttl) => {
        await check(`/api/many/structure?${stringifyQuery({ query: text, ttl: ttl ?? undefined })}`)
      }), { numRuns: 300 })
  })

  it('answer raw query strings and bracket forms with JSON and no 5xx', async () => {
    await fc.assert(fc.asyncProperty(fc.string({ maxLength: 60 }), async (raw) => {
      const safe = raw.replace(/[^\x21-\x7e]/g, (c) => encodeURIComponent(c)).replace(/#/g, '%23')
      await check(`/api/many/structure?query${safe}`)
      await check(`/api/structure?${safe}`)
    }), { numRuns: 200 })
  })
})
