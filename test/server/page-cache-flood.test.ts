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
    // `v` is a product page's variant (decision 043), so another unread name
    expect((await get(`/?utm_source=${i}&ver=${i}`)).statusCode).toBe(200)
  }
  expect((await get('/structure/product')).headers['x-vitrina-cache']).toBe('hit')
})

it('keeps the pages asked for without parameters through a flood of price ranges (issue #36)', async () => {
  const plain = ['/', '/structure/power-tools/', '/structure/product']
  for (const url of plain) expect((await get(url)).statusCode).toBe(200)
  for (const url of plain) expect((await get(url)).headers['x-vitrina-cache'], url).toBe('hit')
  // Every range is a page of its own, rendered and kept with its variants: 1 MB held a few dozen.
  for (let i = 0; i < 60; i++) {
    const res = await get(`/structure/power-tools/?min=${1000 + i}&max=${90000 + i}&sort=price`)
    expect(res.statusCode).toBe(200)
  }
  const again = await get('/structure/power-tools/?min=1059&max=90059&sort=price')
  expect(again.headers['x-vitrina-cache']).toBe('hit')
  for (const url of plain) expect((await get(url)).headers['x-vitrina-cache'], url).toBe('hit')
  expect((await get('/structure/power-tools/?sort=price')).statusCode).toBe(200)
  expect((await get('/structure/power-tools/?sort=price')).headers['x-vitrina-cache']).toBe('hit')
})
