// Answers the server holds whole (pages rendered fresh, API JSON) go out compressed as the client
// asks: brotli before gzip, a refused encoding never sent, small bodies plain, Vary always set.
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { stringifyQuery } from '../../src/api/query-string'
import { buildTestApp, type TestApp } from '../helpers/build-test-app'

let t: TestApp

beforeAll(async () => {
  t = await buildTestApp({ PAGE_CACHE_MB: '0' })
})
afterAll(async () => {
  await t?.close()
})

const get = (url: string, acceptEncoding?: string) =>
  t.app.inject({ method: 'GET', url, headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} })

describe('compression of whole answers', () => {
  it('sends an uncached page as brotli or gzip that decodes to the plain page', async () => {
    const plain = await get('/structure/')
    const br = await get('/structure/', 'gzip, deflate, br')
    const gz = await get('/structure/', 'gzip')
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(plain.headers.vary).toMatch(/\bAccept-Encoding\b/)
    expect(br.headers['content-encoding']).toBe('br')
    expect(gz.headers['content-encoding']).toBe('gzip')
    expect(Number(br.headers['content-length'])).toBe(br.rawPayload.length)
    // Pages differ by their CSP nonce only: compare them without it.
    const withoutNonce = (html: string) => html.replace(/nonce="[^"]+"/g, 'nonce=""')
    expect(withoutNonce(brotliDecompressSync(br.rawPayload).toString())).toBe(withoutNonce(plain.body))
    expect(withoutNonce(gunzipSync(gz.rawPayload).toString())).toBe(withoutNonce(plain.body))
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3)
  })

  it('respects q=0 and the wildcard', async () => {
    expect((await get('/structure/', 'br;q=0, gzip')).headers['content-encoding']).toBe('gzip')
    expect((await get('/structure/', 'br;q=0, gzip;q=0')).headers['content-encoding']).toBeUndefined()
    expect((await get('/structure/', '*')).headers['content-encoding']).toBe('br')
    expect((await get('/structure/', 'identity')).headers['content-encoding']).toBeUndefined()
  })

  it('compresses a large API answer and leaves a small one plain', async () => {
    const query = { select: { id: true, title: true, urlFull: true, typeId: true } }
    const many = await get(`/api/many/structure?${stringifyQuery({ query })}`, 'br')
    expect(many.statusCode).toBe(200)
    expect(many.headers['content-encoding']).toBe('br')
    const data = JSON.parse(brotliDecompressSync(many.rawPayload).toString()) as { data: unknown[] }
    expect(data.data.length).toBeGreaterThan(10)
    const one = await get(`/api/structure?${stringifyQuery({ query: { where: { urlFull: '/' } } })}`, 'br')
    expect(one.statusCode).toBe(200)
    expect(one.rawPayload.length).toBeLessThan(1024)
    expect(one.headers['content-encoding']).toBeUndefined()
  })
})
