// The back office stays out of the public site: no page links to it or names it, no public API
// answers anything of it, crawlers are told to stay away, and whatever /admin answers is neither
// cached nor indexed (the /admin pages themselves are the UI's; here, whatever the path renders).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildAdminApp, removeDir, signIn, SITE, type AdminApp } from './admin-helpers'

let site: AdminApp
let cookie: string

beforeAll(async () => {
  site = await buildAdminApp({ LEAD_RATE_LIMIT: '0', LEAD_MIN_FILL_SECONDS: '0' })
  cookie = await signIn(site.app)
  await site.app.inject({
    method: 'POST',
    url: '/api/feedback',
    payload: { username: 'Зинаида', phone: '+7 912 765-43-21', email: 'zinaida@example.ru', consent: true },
  })
})
afterAll(async () => {
  await site?.close()
  removeDir(site.dir)
})

const get = (url: string, headers: { cookie?: string } = {}) => site.app.inject({ url, headers })

describe('public pages', () => {
  it('never name or link /admin, with or without a session', async () => {
    const urls = (await get('/sitemap.xml')).body
      .match(/<loc>[^<]+<\/loc>/g)!
      .map((loc) => new URL(loc.slice(5, -6)).pathname)
    expect(urls.length).toBeGreaterThan(5)
    for (const url of [...urls, '/zayavka', '/spasibo', '/no-such-page']) {
      for (const headers of [{}, { cookie }]) {
        const page = await get(url, headers)
        // A link or a path to /admin (the dev build's module paths, /…/admin-server/…, are not).
        expect(page.body, url).not.toMatch(/(?<![\w.-])\/admin(?![\w-])/)
        expect(page.body, url).not.toContain('Зинаида')
      }
    }
    expect(urls.some((url) => url.startsWith('/admin'))).toBe(false)
  })

  it('robots.txt disallows /admin', async () => {
    expect((await get('/robots.txt')).body.split('\n')).toContain('Disallow: /admin')
  })

  it('whatever /admin answers is no-store and noindex, never from the page cache', async () => {
    // An escaped spelling is sent to the plain path (issue #43) and kept nowhere either.
    for (const headers of [{}, { cookie }]) {
      const escaped = await get('/%61dmin', headers)
      expect([escaped.statusCode, escaped.headers.location, escaped.headers['cache-control']]).toEqual([
        301,
        '/admin',
        'no-store',
      ])
      expect(escaped.headers['x-vitrina-cache']).toBeUndefined()
    }
    for (const url of ['/admin', '/admin/content', '/admin/content/1', '/admin/index.pageContext.json']) {
      for (const headers of [{}, { cookie }]) {
        const first = await get(url, headers)
        const again = await get(url, headers)
        for (const response of [first, again]) {
          expect(response.headers['cache-control'], url).toBe('no-store')
          expect(response.headers['x-robots-tag'], url).toBe('noindex, nofollow')
          expect(response.headers['x-vitrina-cache'], url).toBeUndefined()
          expect(response.headers.etag, url).toBeUndefined()
        }
      }
    }
  })
})

describe('public APIs', () => {
  it('answer nothing of the back office without a session', async () => {
    for (const url of [
      '/api/admin/leads',
      '/api/admin/leads/latest',
      '/api/admin/leads.csv',
      '/api/admin/session',
      '/api/many/feedback',
      '/api/deliveries',
    ]) {
      const response = await get(url)
      expect(response.statusCode, url).toBe(401)
      expect(response.body, url).not.toContain('Зинаида')
      expect(response.headers['set-cookie'], url).toBeUndefined()
    }
    for (const url of ['/api/many/adminSession', '/api/adminSession', '/api/many/rateLimit']) {
      expect((await get(url)).statusCode, url).toBe(404)
    }
  })

  it('never read a session, its search text or the spam mark through the model API, even as the owner', async () => {
    for (const field of ['searchText', 'spam', 'consentIp']) {
      const query = encodeURIComponent(JSON.stringify({ select: { [field]: true } }))
      const response = await get(`/api/many/feedback?query=${query}`, { cookie })
      expect(response.statusCode, field).toBe(400)
    }
  })

  it('a forged session cookie opens nothing', async () => {
    const forged =
      'vitrina_admin=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'
    expect((await get('/api/admin/leads', { cookie: forged })).statusCode).toBe(401)
    const write = await site.app.inject({
      method: 'PATCH',
      url: '/api/admin/leads/1',
      headers: { cookie: forged, origin: SITE },
      payload: { status: 'closed' },
    })
    expect(write.statusCode).toBe(401)
  })
})
