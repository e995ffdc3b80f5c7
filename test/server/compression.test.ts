// Answers the server holds whole (pages rendered fresh, API JSON) go out compressed as the client
// asks: brotli before gzip, a refused encoding never sent, small bodies plain, Vary always set.
import { randomBytes } from 'node:crypto'
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { brotliParams } from '../../server/http/compression'
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

  it("sizes brotli's window to the body: as small as brotli's widest window makes it, whatever the size", () => {
    for (const size of [1_000, 20_000, 300_000, 3_000_000]) {
      // Random text repeated once: the second half costs nothing only if the window reaches back to the first.
      const half = randomBytes(size / 4).toString('hex')
      const body = Buffer.from(half + half)
      const widest = brotliCompressSync(body, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: 2,
          [constants.BROTLI_PARAM_LGWIN]: constants.BROTLI_MAX_WINDOW_BITS,
        },
      })
      const sized = brotliCompressSync(body, { params: brotliParams(2, body.length) })
      expect(brotliDecompressSync(sized).equals(body)).toBe(true)
      expect(sized.length).toBeLessThanOrEqual(widest.length * 1.01 + 16)
      // Hex is 4 bits a byte: a quarter of the body with the repeat found, half without (quality 2
      // finds a repeat of a page's size; one megabytes back, not even with the widest window).
      if (size <= 300_000) expect(sized.length).toBeLessThan(body.length * 0.3)
    }
  })
})
