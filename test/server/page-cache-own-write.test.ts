// A write of this process empties the page cache once, not twice: the version check that follows
// knows the write's own version bump. (It once emptied the cache again up to a second later, so a
// page kept right after a write was rendered a second time.)
import { afterAll, beforeAll, expect, it } from 'vitest'
import { AUTH, ADMIN_TOKEN } from '../api/helpers'
import { buildTestApp, titleOf, type TestApp } from '../helpers/build-test-app'
import { multipartBody } from '../helpers/multipart'

let clock = Date.now()
let t: TestApp
beforeAll(async () => {
  t = await buildTestApp({ ADMIN_TOKEN }, { now: () => new Date(clock) })
})
afterAll(async () => {
  await t?.close()
})

const get = (url: string) => t.app.inject({ method: 'GET', url })

it('keeps a page rendered after its own write through the next version checks', async () => {
  expect((await get('/structure/product')).statusCode).toBe(200)
  const { id } = await t.app.db
    .selectFrom('structure')
    .select('id')
    .where('urlFull', '=', '/structure/product')
    .executeTakeFirstOrThrow()
  const { payload, headers } = multipartBody({ data: JSON.stringify({ id, title: 'Дрель после записи' }) })
  const write = await t.app.inject({
    method: 'PATCH',
    url: '/api/structure',
    headers: { ...AUTH, ...headers },
    payload,
  })
  expect(write.statusCode).toBe(200)

  const fresh = await get('/structure/product')
  expect([fresh.headers['x-vitrina-cache'], titleOf(fresh.body)]).toEqual(['miss', 'Дрель после записи'])
  for (let check = 0; check < 3; check++) {
    clock += 1100 // past the next version check
    expect((await get('/structure/product')).headers['x-vitrina-cache']).toBe('hit')
  }
})
