import fc from 'fast-check'
import { fastify } from 'fastify'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHttpClient } from './http-client'
import type { HttpClient } from './http-client'
import { encodeQueryComponent, parseQuery, stringifyQuery } from './query-string'
import type { ParsedQuery } from './query-string'

const TRICKY = 'a&b#c+d e%f=g?h;Дрель «ключ» 100₽ /x:y,z@$[]{}"\'<>\\^`|~\t\n'

describe('stringifyQuery', () => {
  it('writes nested objects and arrays in bracket form with literal brackets', () => {
    expect(stringifyQuery({ a: { b: { c: 1 } }, list: ['x', 'y'], rows: [{ id: 1 }] })).toBe(
      'a[b][c]=1&list[0]=x&list[1]=y&rows[0][id]=1',
    )
  })

  it('sends a parameter named query as one JSON string', () => {
    const query = { where: { typeId: { in: ['index'] } }, orderBy: { typeId: 'asc' } }
    const search = stringifyQuery({ query, ttl: 120 })
    expect(search).toMatch(/^query=[^&]+&ttl=120$/)
    expect(parseQuery(search).query).toBe(JSON.stringify(query))
    expect(search).toContain('[%22index%22]')
  })

  it('sends a query that is already a string unchanged', () => {
    expect(parseQuery(stringifyQuery({ query: '{"take":1}' })).query).toBe('{"take":1}')
  })

  it('skips undefined values and sends null as an empty value', () => {
    expect(stringifyQuery({ a: undefined, b: null, c: { d: undefined, e: null } })).toBe('b=&c[e]=')
  })

  it('sends numbers, booleans and dates as text and nothing for empty arrays and objects', () => {
    const date = new Date('2024-05-01T10:00:00.000Z')
    expect(stringifyQuery({ n: 1.5, t: true, f: false, d: date, e: [], o: {} })).toBe(
      'n=1.5&t=true&f=false&d=2024-05-01T10:00:00.000Z',
    )
  })

  it('percent-encodes every character that would break a URL and keeps brackets readable', () => {
    const search = stringifyQuery({ 'k&=#': TRICKY })
    const [key, value, ...rest] = search.split('=')
    expect(rest).toEqual([])
    const unescaped = /^[A-Za-z0-9\-_.!~*'()[\]:/@$,]*$/
    expect(key.replace(/%[0-9A-F]{2}/g, '')).toMatch(unescaped)
    expect(value.replace(/%[0-9A-F]{2}/g, '')).toMatch(unescaped)
    expect(value).toContain('[]')
    expect(parseQuery(search)).toEqual({ 'k&=#': TRICKY })
  })

  it('encodes Cyrillic as UTF-8 escapes', () => {
    expect(encodeQueryComponent('Дрель')).toBe('%D0%94%D1%80%D0%B5%D0%BB%D1%8C')
  })

  it('replaces a lone surrogate instead of throwing', () => {
    expect(parseQuery(stringifyQuery({ a: 'x\uD800y' }))).toEqual({ a: 'x\uFFFDy' })
  })
})

describe('parseQuery', () => {
  it('reads bracket keys into nested objects and index keys into arrays', () => {
    expect(parseQuery('?a[b][c]=1&list[1]=y&list[0]=x&rows[0][id]=7')).toEqual({
      a: { b: { c: '1' } },
      list: ['x', 'y'],
      rows: [{ id: '7' }],
    })
  })

  it('reads a path with a query, as in req.raw.url', () => {
    expect(parseQuery('/api/many/structure?a[b]=1#top')).toEqual({ a: { b: '1' } })
  })

  it('keeps a literal question mark inside a bare query value', () => {
    expect(parseQuery('a=b?c')).toEqual({ a: 'b?c' })
  })

  it('reads brackets encoded by URLSearchParams as structure', () => {
    expect(parseQuery(new URLSearchParams({ 'a[b]': 'x y' }).toString())).toEqual({ a: { b: 'x y' } })
  })

  it('collects repeated keys and empty brackets into arrays', () => {
    expect(parseQuery('a=1&a=2&b[]=x&b[]=y')).toEqual({ a: ['1', '2'], b: ['x', 'y'] })
  })

  it('reads a key without a value as an empty string and skips empty keys', () => {
    expect(parseQuery('flag&=x&&b=')).toEqual({ flag: '', b: '' })
  })

  it('keeps a malformed escape as written', () => {
    expect(parseQuery('a=%zz%41%D0')).toEqual({ a: '%zzA%D0' })
  })

  it('drops keys that would reach Object.prototype', () => {
    const parsed = parseQuery('__proto__[polluted]=1&a[constructor][prototype][x]=1&ok=1')
    expect(parsed).toEqual({ ok: '1' })
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it('keeps brackets past the depth limit in the last key', () => {
    expect(parseQuery('a[b][c][d]=1', { depth: 2 })).toEqual({ a: { b: { c: { '[d]': '1' } } } })
  })

  it('reads at most parameterLimit pairs', () => {
    expect(parseQuery('a=1&b=2&c=3', { parameterLimit: 2 })).toEqual({ a: '1', b: '2' })
  })

  it('round-trips any tree of non-empty strings, objects and arrays', () => {
    const key = fc
      .string({ unit: 'grapheme', minLength: 1, maxLength: 8 })
      .filter((k) => !/[[\]]/.test(k) && !/^(?:0|[1-9]\d*)$/.test(k))
      .filter((k) => !['__proto__', 'constructor', 'prototype', 'query'].includes(k))
    const { tree } = fc.letrec<{ tree: ParsedQuery; value: unknown }>((tie) => ({
      tree: fc.dictionary(key, tie('value'), { minKeys: 1, maxKeys: 4 }) as fc.Arbitrary<ParsedQuery>,
      value: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        fc.string({ unit: 'grapheme', maxLength: 12 }),
        fc.array(tie('value'), { minLength: 1, maxLength: 3 }),
        tie('tree'),
      ),
    }))
    fc.assert(
      fc.property(tree, (params) => {
        expect(parseQuery(stringifyQuery(params))).toEqual(params)
      }),
    )
  })
})

describe('a query string sent to Fastify', () => {
  let app: FastifyInstance
  let client: HttpClient

  beforeAll(async () => {
    app = fastify()
    app.get('/echo', async (req) => ({
      url: req.raw.url,
      query: req.query,
      parsed: parseQuery(req.raw.url ?? ''),
    }))
    const baseUrl = await app.listen({ host: '127.0.0.1', port: 0 })
    client = createHttpClient({ baseUrl })
  })

  afterAll(() => app.close())

  interface Echo {
    url: string
    query: Record<string, unknown>
    parsed: ParsedQuery
  }

  it('round-trips nested objects and arrays through the raw URL', async () => {
    const params = { filter: { title: TRICKY, tags: ['Дрель', 'a&b', '50%'] }, page: '2' }
    const echo = await client.request<Echo>('GET', '/echo', { query: params })
    expect(echo.parsed).toEqual(params)
  })

  it('shows brackets literally in the URL the server receives', async () => {
    const echo = await client.request<Echo>('GET', '/echo', { query: { a: { b: { c: 1 } }, list: ['x'] } })
    expect(echo.url).toBe('/echo?a[b][c]=1&list[0]=x')
  })

  it('reaches Fastify req.query as flat bracket keys with decoded values', async () => {
    const echo = await client.request<Echo>('GET', '/echo', {
      query: { a: { b: { c: 'x y' } }, q: 'Дрель & ключ', plus: '1+1=2' },
    })
    expect(echo.query).toEqual({ 'a[b][c]': 'x y', q: 'Дрель & ключ', plus: '1+1=2' })
  })

  it('delivers query as the same JSON text', async () => {
    const query = {
      select: { id: true, title: true, index: { select: { logo: true } } },
      where: { title: { contains: TRICKY }, typeId: { in: ['index', 'page'] } },
      orderBy: [{ sort: 'asc' }],
      take: 10,
    }
    const echo = await client.request<Echo>('GET', '/echo', { query: { query, ttl: 120 } })
    expect(echo.parsed.query).toBe(JSON.stringify(query))
    expect(echo.query.query).toBe(JSON.stringify(query))
    expect(JSON.parse(echo.parsed.query as string)).toEqual(query)
    expect(echo.parsed.ttl).toBe('120')
  })
})
