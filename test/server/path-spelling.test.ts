// One spelling of a path (issue #43): a percent-escape of a plain character answers 301 to the path
// written plainly, with its query, and takes no room in the page cache; escapes that must stay
// (Cyrillic, `/`, `?`, `%`) are answered as before, in upper-case hex.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AUTH, ADMIN_TOKEN } from '../api/helpers'
import { buildTestApp, recordIdAt, type TestApp } from '../helpers/build-test-app'
import { sendRecord } from '../helpers/multipart'

let t: TestApp
beforeAll(async () => {
  // 1 MB holds a few dozen pages with their variants: 40 spellings of one path pushed `/` out.
  t = await buildTestApp({ ADMIN_TOKEN, PAGE_CACHE_MB: '1' })
})
afterAll(async () => {
  await t?.close()
})

const get = (url: string) => t.app.inject({ method: 'GET', url })

/** `/structure/power-tools/` with the letters of "power" picked by `mask` written as escapes. */
function spelling(mask: number): string {
  const word = [...'power-tools']
    .map((char, i) => (mask & (1 << i) ? `%${char.charCodeAt(0).toString(16)}` : char))
    .join('')
  return `/structure/${word}/`
}

describe('a path spelled with escapes', () => {
  it('answers 301 to the plain spelling, with its query, and the plain one answers the page', async () => {
    const res = await get('/structure/%70ower-tools/')
    expect(res.statusCode).toBe(301)
    expect(res.headers.location).toBe('/structure/power-tools/')
    expect(res.headers['x-vitrina-cache']).toBeUndefined()
    expect(res.headers['cache-control']).toBe('no-store')
    expect(res.body).toContain('Страница переехала')
    const query = await get('/structure/%70%6F%57er-tools/?sort=price&utm_source=x')
    expect([query.statusCode, query.headers.location]).toEqual([301, '/structure/poWer-tools/?sort=price&utm_source=x'])
    expect((await get('/structure/power-tools/')).statusCode).toBe(200)
    // An escape that must stay is not decoded into another path: `%2F` is not `/`.
    const slash = await get('/structure%2Fpower-tools/')
    expect(slash.headers.location).not.toBe('/structure/power-tools/')
  })

  it('answers a Cyrillic path as before, and its lower-case escapes with 301 to upper-case ones', async () => {
    const made = await sendRecord(t.app, AUTH, 'POST', '/api/structure', {
      parentId: await recordIdAt(t.app.db, '/'),
      typeId: 'page',
      title: 'Акции лета',
      urlFull: '/акции',
      content: 'Скидки до конца месяца.',
    })
    expect(made.statusCode, made.body).toBe(201)
    const encoded = encodeURI('/акции')
    const page = await get(encoded)
    expect(page.statusCode).toBe(200)
    expect(page.body).toContain('Скидки до конца месяца.')
    const lower = await get(`${encoded.toLowerCase()}?a=1`)
    expect([lower.statusCode, lower.headers.location]).toEqual([301, `${encoded}?a=1`])
  })

  it('keeps `/` in a small page cache through every spelling of a path', async () => {
    expect((await get('/')).statusCode).toBe(200)
    expect((await get('/')).headers['x-vitrina-cache']).toBe('hit')
    const answers: [number, unknown][] = []
    for (let mask = 1; mask < 128; mask++) {
      const res = await get(spelling(mask))
      answers.push([res.statusCode, res.headers.location])
    }
    expect((await get('/')).headers['x-vitrina-cache']).toBe('hit')
    expect(new Set(answers.map((answer) => JSON.stringify(answer)))).toEqual(
      new Set([JSON.stringify([301, '/structure/power-tools/'])]),
    )
  })
})
