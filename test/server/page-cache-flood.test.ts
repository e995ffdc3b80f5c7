// Junk URLs cannot push real pages out of the page cache: a 404 (any path makes one) and a
// parameter the page does not read make no entry of their own.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../helpers/build-test-app'

let t: TestApp
beforeAll(async () => {
  // 1 MB holds a few dozen pages with their variants: a flood of junk entries once pushed them out.
  t = await buildTestApp({ PAGE_CACHE_MB: '1' })
})
afterAll(async () => {
  await t?.close()
})

const get = (url: string) => t.app.inject({ method: 'GET', url })

it('keeps the real pages through a flood of missing paths and unread parameters', async () => {
  await get('/structure/product')
  for (let i = 0; i < 150; i++) {
    expect((await get(`/no/such/page-${i}`)).statusCode).toBe(404)
    expect((await get(`/structure/product?junk=${i}`)).statusCode).toBe(200)
    expect((await get(`/?utm_source=${i}&v=${i}`)).statusCode).toBe(200)
  }
  expect((await get('/structure/product')).headers['x-vitrina-cache']).toBe('hit')
})
