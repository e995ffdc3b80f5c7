// The speculation rules come by header (docs/decisions/046-speculation-rules-header.md): every
// public page's HTML answer, rendered by Vike, by the server's direct path or taken from the page
// cache, names the rules' URL in `Speculation-Rules`; that URL answers the rules as a browser
// accepts them; no page carries them inline any more, so the policy allows no script by hash; the
// back office, whose head never had the rules, has no header either.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../helpers/build-test-app'

let t: TestApp

beforeAll(async () => {
  t = await buildTestApp()
})
afterAll(async () => {
  await t?.close()
})

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers })

/** The one URL a `Speculation-Rules` header names (an RFC 8941 list of one string), or null. */
function rulesUrl(header: unknown): string | null {
  const match = typeof header === 'string' ? /^"([^"\\]+)"$/.exec(header.trim()) : null
  return match ? match[1] : null
}

/** What a browser checks of a page's answer: the header, no inline rules, no script hash in the policy. */
function expectRulesByHeader(page: Awaited<ReturnType<typeof get>>, url: string) {
  expect(page.statusCode, url).toBe(200)
  expect(page.headers['content-type'], url).toMatch(/^text\/html/)
  expect(rulesUrl(page.headers['speculation-rules']), url).toMatch(/^\/[\w./-]+$/)
  expect(page.body, url).not.toContain('speculationrules')
  const scripts = /script-src ([^;]*)/.exec(String(page.headers['content-security-policy']))?.[1]
  expect(scripts, url).toMatch(/^'strict-dynamic' 'nonce-[\w-]+'$/)
}

describe('the Speculation-Rules header', () => {
  it('names the rules on the home page and a product page, rendered and from the page cache', async () => {
    const product = '/structure/power-tools/angle-grinder'
    const renderings = { ...t.app.pages.renderings }
    for (const url of ['/', '/structure/', product]) {
      const first = await get(url)
      expectRulesByHeader(first, url)
      const again = await get(url)
      expect(again.headers['x-vitrina-cache'], url).toBe('hit')
      expectRulesByHeader(again, url)
      expect(again.headers['speculation-rules']).toBe(first.headers['speculation-rules'])
    }
    // Both ways of rendering a page gave it: Vike's, and the direct path's after Vike's first.
    expect(t.app.pages.renderings.vike).toBeGreaterThan(renderings.vike)
    expect(t.app.pages.renderings.direct).toBeGreaterThan(renderings.direct)
  })

  it('stays on a revalidated page (304) and on the 404 page, whose head had the rules', async () => {
    const page = await get('/')
    const revalidated = await get('/', { 'if-none-match': String(page.headers.etag) })
    expect(revalidated.statusCode).toBe(304)
    expect(revalidated.headers['speculation-rules']).toBe(page.headers['speculation-rules'])
    const missing = await get('/no-such-page')
    expect(missing.statusCode).toBe(404)
    expect(rulesUrl(missing.headers['speculation-rules'])).not.toBeNull()
    expect(missing.body).not.toContain('speculationrules')
  })

  it('names rules a browser accepts: same-origin JSON of the right type, prefetching pages only', async () => {
    const url = rulesUrl((await get('/')).headers['speculation-rules'])!
    const rules = await get(new URL(url, 'https://shop.example.ru/').pathname)
    expect(rules.statusCode).toBe(200)
    expect(rules.headers['content-type']).toBe('application/speculationrules+json')
    expect(rules.headers['cache-control']).toMatch(/^public, max-age=\d+$/)
    const body = rules.json<{ prefetch: { where: { and: object[] }; eagerness: string }[] }>()
    expect(Object.keys(body)).toEqual(['prefetch'])
    expect(body.prefetch).toHaveLength(1)
    const [rule] = body.prefetch
    expect(rule.eagerness).toBe('moderate')
    expect(rule.where.and).toEqual([
      { href_matches: '/*' },
      { not: { href_matches: '/api/*' } },
      { not: { href_matches: '/media/*' } },
      { not: { selector_matches: '[download]' } },
    ])
  })

  it('is not on answers that are not pages: a redirect, the rules themselves', async () => {
    const redirect = await get('/structure/power-tools')
    expect(redirect.statusCode).toBe(301)
    expect(redirect.headers['speculation-rules']).toBeUndefined()
    const url = rulesUrl((await get('/')).headers['speculation-rules'])!
    expect((await get(url)).headers['speculation-rules']).toBeUndefined()
  })

  it('is not on the back office, whose head never had the rules', async () => {
    for (const url of ['/admin', '/admin/content']) {
      const page = await get(url)
      expect(page.statusCode, url).toBe(200)
      expect(page.headers['content-type'], url).toMatch(/^text\/html/)
      expect(page.headers['speculation-rules'], url).toBeUndefined()
      expect(page.body, url).not.toContain('speculationrules')
    }
  })
})
