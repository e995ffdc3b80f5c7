// Signing in to the back office: the secret, the limit on attempts, the cookie and its flags, the
// sliding 12-hour expiry, revocation by sign-out and by a new secret, forged cookies.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { tempDir } from '../helpers/build-test-app'
import {
  ADMIN_PASSWORD,
  ADMIN_TOKEN,
  buildAdminApp,
  cookieOf,
  removeDir,
  signIn,
  SITE,
  type AdminApp,
} from './admin-helpers'

const HOUR = 60 * 60 * 1000
let site: AdminApp

beforeAll(async () => {
  site = await buildAdminApp()
})
afterAll(async () => {
  await site?.close()
  removeDir(site.dir)
})

function signInAttempt(
  t: AdminApp,
  secret: string,
  headers: Record<string, string> = { origin: SITE },
  remoteAddress = '127.0.0.1',
) {
  return t.app.inject({ method: 'POST', url: '/api/admin/session', headers, payload: { secret }, remoteAddress })
}

function sessionState(t: AdminApp, cookie: string) {
  return t.app.inject({ url: '/api/admin/session', headers: { cookie } })
}

describe('sign-in', () => {
  it('lets the right secret in with a session cookie that has every flag', async () => {
    const response = await signInAttempt(site, ADMIN_TOKEN, { origin: SITE }, '10.1.0.1')
    expect(response.statusCode).toBe(204)
    expect(response.headers['cache-control']).toBe('no-store')
    const line = [response.headers['set-cookie']].flat()[0]!
    expect(line).toMatch(/^vitrina_admin=[^;]+\.[^;]+;/)
    expect(line).toMatch(/; HttpOnly/i)
    expect(line).toMatch(/; SameSite=Strict/i)
    expect(line).toMatch(/; Path=\/(;|$)/)
    expect(line).toMatch(/; Secure/i)
    expect(line).toMatch(/; Max-Age=43200/)
    // The cookie is not the secret, nor does it contain it.
    expect(line).not.toContain(ADMIN_TOKEN)
    const state = await sessionState(site, cookieOf(response.headers['set-cookie']))
    expect(state.statusCode).toBe(200)
    const body = state.json<{ data: { signedIn: boolean; expiresAt: string } }>()
    expect(body.data.signedIn).toBe(true)
    expect(Date.parse(body.data.expiresAt) - site.clock.now().getTime()).toBe(12 * HOUR)
  })

  it('refuses a wrong secret in Russian and sets no cookie', async () => {
    const response = await signInAttempt(site, 'not-the-admin-token', { origin: SITE }, '10.1.0.2')
    expect(response.statusCode).toBe(401)
    expect(response.json().error.message).toBe('Неверный пароль')
    expect(response.headers['set-cookie']).toBeUndefined()
    const empty = await signInAttempt(site, '', { origin: SITE }, '10.1.0.2')
    expect(empty.statusCode).toBe(400)
    expect(empty.json().errors.secret).toBe('Введите пароль')
  })

  it('refuses a sign-in without the Origin of the site', async () => {
    const variants: Array<Record<string, string>> = [{}, { origin: 'https://evil.example.com' }, { origin: 'null' }]
    for (const headers of variants) {
      const response = await signInAttempt(site, ADMIN_TOKEN, headers, '10.1.0.3')
      expect(response.statusCode).toBe(403)
      expect(response.json().error.message).toBe('Запрос с чужого сайта отклонён')
      expect(response.headers['set-cookie']).toBeUndefined()
    }
  })

  it('allows 5 attempts a minute per address: the 6th gets 429 in Russian, another address still signs in', async () => {
    for (let i = 0; i < 5; i++) {
      expect((await signInAttempt(site, `wrong-secret-${i}`, { origin: SITE }, '10.2.0.1')).statusCode).toBe(401)
    }
    const sixth = await signInAttempt(site, ADMIN_TOKEN, { origin: SITE }, '10.2.0.1')
    expect(sixth.statusCode).toBe(429)
    expect(sixth.json().error.message).toBe('Слишком много попыток входа. Попробуйте через минуту.')
    expect(sixth.headers['set-cookie']).toBeUndefined()
    expect(Number(sixth.headers['retry-after'])).toBeGreaterThan(0)
    expect((await signInAttempt(site, ADMIN_TOKEN, { origin: SITE }, '10.2.0.2')).statusCode).toBe(204)
    // A minute later the first address may try again.
    site.clock.advance(61_000)
    expect((await signInAttempt(site, ADMIN_TOKEN, { origin: SITE }, '10.2.0.1')).statusCode).toBe(204)
  })

  it('takes ADMIN_PASSWORD instead of ADMIN_TOKEN when it is set, and no Secure flag on http', async () => {
    const other = await buildAdminApp({ ADMIN_PASSWORD, PUBLIC_URL: 'http://shop.example.ru' })
    try {
      const origin = { origin: 'http://shop.example.ru' }
      const token = await signInAttempt(other, ADMIN_TOKEN, origin)
      expect(token.statusCode).toBe(401)
      const password = await signInAttempt(other, ADMIN_PASSWORD, origin)
      expect(password.statusCode).toBe(204)
      const line = [password.headers['set-cookie']].flat()[0]!
      expect(line).toMatch(/; HttpOnly/i)
      expect(line).not.toMatch(/; Secure/i)
      // The API token keeps working for the command-line tools.
      const api = await other.app.inject({
        url: '/api/admin/leads',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      })
      expect(api.statusCode).toBe(200)
    } finally {
      await other.close()
      removeDir(other.dir)
    }
  })

  it('says in Russian, while nothing signs in, that the link to choose a password is in the server console', async () => {
    const bare = await buildAdminApp({ ADMIN_TOKEN: '' })
    try {
      const response = await signInAttempt(bare, 'anything-at-all')
      expect(response.statusCode).toBe(403)
      expect(response.json().error.message).toBe(
        'Пароль владельца ещё не задан. Ссылка, по которой его можно задать, напечатана в консоли сервера при запуске.',
      )
    } finally {
      await bare.close()
      removeDir(bare.dir)
    }
  })
})

describe('the session', () => {
  it('ends after 12 hours without a request, and each request moves that forward', async () => {
    const cookie = await signIn(site.app, ADMIN_TOKEN, '10.3.0.1')
    site.clock.advance(11 * HOUR)
    const slid = await sessionState(site, cookie)
    expect(slid.statusCode).toBe(200)
    // The browser's copy is renewed with the expiry.
    expect(cookieOf(slid.headers['set-cookie'])).toBe(cookie)
    site.clock.advance(11 * HOUR)
    expect((await sessionState(site, cookie)).statusCode).toBe(200)
    site.clock.advance(12 * HOUR + 1000)
    const expired = await sessionState(site, cookie)
    expect(expired.statusCode).toBe(401)
    expect(expired.json().error.message).toBe('Войдите в админку')
  })

  it('writes the sliding expiry at most once a minute', async () => {
    const cookie = await signIn(site.app, ADMIN_TOKEN, '10.3.0.2')
    const first = (await sessionState(site, cookie)).json().data.expiresAt
    site.clock.advance(30_000)
    const soon = await sessionState(site, cookie)
    expect(soon.json().data.expiresAt).toBe(first)
    expect(soon.headers['set-cookie']).toBeUndefined()
    site.clock.advance(31_000)
    expect((await sessionState(site, cookie)).json().data.expiresAt).not.toBe(first)
  })

  it('is revoked by signing out: the old cookie is refused afterwards', async () => {
    const cookie = await signIn(site.app, ADMIN_TOKEN, '10.3.0.3')
    const foreign = await site.app.inject({
      method: 'DELETE',
      url: '/api/admin/session',
      headers: { cookie, origin: 'https://evil.example.com' },
    })
    expect(foreign.statusCode).toBe(403)
    expect((await sessionState(site, cookie)).statusCode).toBe(200)
    const out = await site.app.inject({
      method: 'DELETE',
      url: '/api/admin/session',
      headers: { cookie, origin: SITE },
    })
    expect(out.statusCode).toBe(204)
    const cleared = [out.headers['set-cookie']].flat()[0]!
    expect(cleared).toMatch(/^vitrina_admin=;/)
    expect(cleared).toMatch(/Expires=Thu, 01 Jan 1970/)
    expect((await sessionState(site, cookie)).statusCode).toBe(401)
  })

  it('is one session for every worker on the database: signed in on one, signed out on another', async () => {
    const worker = await buildAdminApp({}, site.dir, site.clock)
    try {
      const cookie = await signIn(site.app, ADMIN_TOKEN, '10.3.0.5')
      expect((await sessionState(worker, cookie)).statusCode).toBe(200)
      const out = await worker.app.inject({
        method: 'DELETE',
        url: '/api/admin/session',
        headers: { cookie, origin: SITE },
      })
      expect(out.statusCode).toBe(204)
      expect((await sessionState(site, cookie)).statusCode).toBe(401)
    } finally {
      await worker.close()
    }
  })

  it('refuses tampered and forged cookies', async () => {
    const cookie = await signIn(site.app, ADMIN_TOKEN, '10.3.0.4')
    const value = decodeURIComponent(cookie.slice('vitrina_admin='.length))
    const [token, signature] = [value.slice(0, value.lastIndexOf('.')), value.slice(value.lastIndexOf('.') + 1)]
    const flip = (text: string) => (text[0] === 'A' ? 'B' : 'A') + text.slice(1)
    const forged = [
      `vitrina_admin=${encodeURIComponent(`${flip(token)}.${signature}`)}`,
      `vitrina_admin=${encodeURIComponent(`${token}.${flip(signature)}`)}`,
      `vitrina_admin=${encodeURIComponent(token)}`,
      `vitrina_admin=${encodeURIComponent(`${token}.`)}`,
      'vitrina_admin=admin',
    ]
    for (const bad of forged) expect((await sessionState(site, bad)).statusCode).toBe(401)
    expect((await sessionState(site, cookie)).statusCode).toBe(200)
  })

  it('is revoked by changing the secret (the same database, another ADMIN_TOKEN)', async () => {
    const dir = tempDir('vitrina-admin-')
    const first = await buildAdminApp({}, dir)
    const cookie = await signIn(first.app)
    expect((await sessionState(first, cookie)).statusCode).toBe(200)
    await first.close()
    const second = await buildAdminApp({ ADMIN_TOKEN: 'another-admin-token-9876543210' }, dir)
    try {
      expect((await sessionState(second, cookie)).statusCode).toBe(401)
      const write = await second.app.inject({
        method: 'PATCH',
        url: '/api/admin/leads/1',
        headers: { cookie, origin: SITE },
        payload: { status: 'closed' },
      })
      expect(write.statusCode).toBe(401)
    } finally {
      await second.close()
    }
    // Back to the first secret: its sessions were deleted when the second one started.
    const third = await buildAdminApp({}, dir)
    try {
      expect((await sessionState(third, cookie)).statusCode).toBe(401)
      expect((await sessionState(third, await signIn(third.app))).statusCode).toBe(200)
    } finally {
      await third.close()
      removeDir(dir)
    }
  })
})
