// The first sign-in without a terminal (issue 45, docs/decisions/038-first-sign-in.md), on SQLite
// and PostgreSQL: the start prints a one-time link while no password exists, the link chooses the
// owner's password once and signs the browser in, a changed password ends the other sessions, and
// ADMIN_PASSWORD / ADMIN_TOKEN keep working for operators.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startLines } from '../../server/admin/start-line'
import { collectOutput, tempDir } from '../helpers/build-test-app'
import { createTestSchema, TEST_DATABASE_URL, type TestSchema } from '../helpers/postgres'
import {
  ADMIN_PASSWORD,
  ADMIN_TOKEN,
  buildAdminApp,
  cookieOf,
  removeDir,
  SITE,
  TestClock,
  type AdminApp,
} from './admin-helpers'

const OWNER_PASSWORD = 'мой-новый-пароль-2026'
const LINK_INVALID =
  'Ссылка для установки пароля недействительна: она устарела или уже использована. ' +
  'Перезапустите сервер — в консоли появится новая.'

const DIALECTS = [
  { name: 'SQLite', available: true },
  { name: 'PostgreSQL', available: Boolean(TEST_DATABASE_URL) },
] as const

/** The token of the one-time link in the lines the start prints (the test fails without one). */
function linkToken(lines: string[]): string {
  const line = lines.find((l) => l.includes('/admin/setup?token='))
  if (!line) throw new Error(`no one-time link in ${JSON.stringify(lines)}`)
  return new URL(line.slice(line.indexOf('https://'))).searchParams.get('token')!
}

for (const dialect of DIALECTS)
  describe.runIf(dialect.available)(`the first sign-in on ${dialect.name}`, () => {
    const schemas: TestSchema[] = []
    const apps: AdminApp[] = []

    /** A site on its own new database (or another process on `on`'s database). */
    async function site(env: Record<string, string> = {}, on?: AdminApp, log?: NodeJS.WritableStream) {
      let database: Record<string, string> = {}
      if (dialect.name === 'PostgreSQL') {
        const schema = on ? null : await createTestSchema()
        if (schema) schemas.push(schema)
        database = {
          DATABASE_URL: on ? (on.config.database.kind === 'postgres' ? on.config.database.url : '') : schema!.url,
        }
      }
      const app = await buildAdminApp(
        { ADMIN_TOKEN: '', ...database, ...(log ? { LOG_LEVEL: 'info' } : {}), ...env },
        on?.dir ?? tempDir('vitrina-admin-'),
        on?.clock ?? new TestClock(),
        log,
      )
      apps.push(app)
      return app
    }

    afterAll(async () => {
      for (const app of apps.reverse()) await app.close()
      for (const app of apps) removeDir(app.dir)
      for (const schema of schemas) await schema.drop()
    })

    const setup = (t: AdminApp, token: string, password: string, remoteAddress = '127.0.0.1') =>
      t.app.inject({
        method: 'POST',
        url: '/api/admin/setup',
        headers: { origin: SITE },
        payload: { token, password },
        remoteAddress,
      })
    const signInWith = (t: AdminApp, secret: string, remoteAddress = '127.0.0.1') =>
      t.app.inject({
        method: 'POST',
        url: '/api/admin/session',
        headers: { origin: SITE },
        payload: { secret },
        remoteAddress,
      })
    const session = (t: AdminApp, cookie: string) => t.app.inject({ url: '/api/admin/session', headers: { cookie } })
    const ownerRows = (t: AdminApp) => t.app.db.selectFrom('ownerPassword').selectAll().execute()

    it('prints a one-time link that chooses the password once, signs the browser in, and is refused after', async () => {
      const t = await site()
      const lines = await startLines(t.app, t.config)
      expect(lines).toHaveLength(2)
      expect(lines[0]).toMatch(
        /^Choose the owner's password \(one-time link, valid 1 h\): https:\/\/shop\.example\.ru\/admin\/setup\?token=/,
      )
      expect(lines[1]).toMatch(
        /^Vitrina is running at http:\/\/localhost:\d+; back office: https:\/\/shop\.example\.ru\/admin \(/,
      )
      expect(lines[1]).toContain('sign-in is not set up yet')
      const token = linkToken(lines)
      expect(token.length).toBeGreaterThanOrEqual(22) // ≥ 128 bits in base64url

      // /admin says where the link is, and nothing signs in yet.
      const before = await t.app.inject({ url: '/api/admin/session' })
      expect(before.statusCode).toBe(403)
      expect(before.json().error.message).toContain('напечатана в консоли сервера')

      // Bad input: a Russian reason, nothing written, the link still good.
      const short = await setup(t, token, 'короткий')
      expect(short.statusCode).toBe(400)
      expect(short.json().errors.password).toBe('Пароль должен быть не короче 10 символов')
      const long = await setup(t, token, 'п'.repeat(257))
      expect(long.json().errors.password).toBe('Пароль должен быть не длиннее 256 символов')
      expect((await setup(t, '', OWNER_PASSWORD)).statusCode).toBe(400)
      const foreign = await t.app.inject({
        method: 'POST',
        url: '/api/admin/setup',
        headers: { origin: 'https://evil.example.com' },
        payload: { token, password: OWNER_PASSWORD },
      })
      expect(foreign.statusCode).toBe(403)
      const guessed = await setup(t, `${token}x`, OWNER_PASSWORD)
      expect(guessed.statusCode).toBe(403)
      expect(guessed.json().error.message).toBe(LINK_INVALID)
      expect(await ownerRows(t)).toEqual([])

      const chosen = await setup(t, token, OWNER_PASSWORD)
      expect(chosen.statusCode).toBe(204)
      const state = await session(t, cookieOf(chosen.headers['set-cookie']))
      expect(state.statusCode).toBe(200)
      expect(state.json().data.signInWith).toBe('owner')

      // Single use: the same link, even with another password, changes nothing.
      const again = await setup(t, token, 'другой-пароль-12345', '10.45.0.2')
      expect(again.statusCode).toBe(403)
      expect(again.json().error.message).toBe(LINK_INVALID)
      expect((await signInWith(t, 'другой-пароль-12345', '10.45.0.2')).statusCode).toBe(401)
      expect((await signInWith(t, OWNER_PASSWORD, '10.45.0.2')).statusCode).toBe(204)

      // Kept as a memory-hard hash, never as the password.
      const [row] = await ownerRows(t)
      expect(row.hash).toMatch(/^scrypt\$32768\$8\$3\$/)
      expect(row.hash).not.toContain(OWNER_PASSWORD)

      // The next start prints no link and says how sign-in works.
      const next = await startLines(t.app, t.config)
      expect(next).toHaveLength(1)
      expect(next[0]).toMatch(/back office: https:\/\/shop\.example\.ru\/admin \(sign-in: the owner's password\)$/)
    })

    it('refuses a link an hour after it was printed, and accepts it on another process of the database', async () => {
      const t = await site()
      const expired = linkToken(await startLines(t.app, t.config))
      t.clock.advance(60 * 60 * 1000 + 1000)
      expect((await setup(t, expired, OWNER_PASSWORD)).json().error.message).toBe(LINK_INVALID)
      // A restart prints a new link; another worker on the same database takes it.
      const fresh = linkToken(await startLines(t.app, t.config))
      const worker = await site({}, t)
      expect((await setup(worker, fresh, OWNER_PASSWORD)).statusCode).toBe(204)
      expect((await signInWith(t, OWNER_PASSWORD)).statusCode).toBe(204)
    })

    it('lets exactly one of two links set the password when both are used at once', async () => {
      const t = await site()
      const [a, b] = [linkToken(await startLines(t.app, t.config)), linkToken(await startLines(t.app, t.config))]
      const answers = await Promise.all([
        setup(t, a, 'первый-пароль-111', '10.45.1.1'),
        setup(t, b, 'второй-пароль-222', '10.45.1.2'),
      ])
      expect(answers.filter((r) => r.statusCode === 204)).toHaveLength(1)
      expect([403, 409]).toContain(answers.find((r) => r.statusCode !== 204)!.statusCode)
      const winner = answers[0].statusCode === 204 ? 'первый-пароль-111' : 'второй-пароль-222'
      const loser = winner === 'первый-пароль-111' ? 'второй-пароль-222' : 'первый-пароль-111'
      expect((await signInWith(t, winner, '10.45.1.3')).statusCode).toBe(204)
      expect((await signInWith(t, loser, '10.45.1.3')).statusCode).toBe(401)
    })

    it('counts guessed links with the failed credentials: past five a minute even the right link waits', async () => {
      const t = await site()
      const token = linkToken(await startLines(t.app, t.config))
      for (let i = 0; i < 5; i++)
        expect((await setup(t, `guess-${i}-${token}`, OWNER_PASSWORD, '10.45.2.1')).statusCode).toBe(403)
      const limited = await setup(t, token, OWNER_PASSWORD, '10.45.2.1')
      expect(limited.statusCode).toBe(429)
      expect(limited.json().error.message).toBe('Слишком много попыток входа. Попробуйте через минуту.')
      expect(await ownerRows(t)).toEqual([])
      expect((await setup(t, token, OWNER_PASSWORD, '10.45.2.2')).statusCode).toBe(204)
    })

    it('ends every other session when the password changes, and keeps the one that changed it', async () => {
      const t = await site()
      const first = await setup(t, linkToken(await startLines(t.app, t.config)), OWNER_PASSWORD)
      const laptop = cookieOf(first.headers['set-cookie'])
      const phone = cookieOf((await signInWith(t, OWNER_PASSWORD, '10.45.3.1')).headers['set-cookie'])
      const change = (current: string, password: string) =>
        t.app.inject({
          method: 'PUT',
          url: '/api/admin/password',
          headers: { cookie: laptop, origin: SITE },
          payload: { current, password },
          remoteAddress: '10.45.3.2',
        })

      const wrong = await change('не-тот-пароль', 'совсем-новый-пароль')
      expect(wrong.statusCode).toBe(403)
      expect(wrong.json().errors.current).toBe('Неверный текущий пароль')
      const short = await change(OWNER_PASSWORD, 'коротко')
      expect(short.statusCode).toBe(400)
      expect(short.json().errors.password).toBe('Пароль должен быть не короче 10 символов')
      expect((await session(t, phone)).statusCode).toBe(200)
      const unsigned = await t.app.inject({
        method: 'PUT',
        url: '/api/admin/password',
        headers: { origin: SITE },
        payload: { current: OWNER_PASSWORD, password: 'совсем-новый-пароль' },
      })
      expect(unsigned.statusCode).toBe(401)

      expect((await change(OWNER_PASSWORD, 'совсем-новый-пароль')).statusCode).toBe(204)
      expect((await session(t, laptop)).statusCode).toBe(200)
      expect((await session(t, phone)).statusCode).toBe(401)
      expect((await signInWith(t, OWNER_PASSWORD, '10.45.3.3')).statusCode).toBe(401)
      expect((await signInWith(t, 'совсем-новый-пароль', '10.45.3.3')).statusCode).toBe(204)
    })

    it('lets ADMIN_TOKEN sign in until a password is chosen; the bearer token keeps working after', async () => {
      const t = await site({ ADMIN_TOKEN })
      const lines = await startLines(t.app, t.config)
      expect(lines[1]).toContain('sign-in: ADMIN_TOKEN until the owner chooses a password with the one-time link above')
      expect((await signInWith(t, ADMIN_TOKEN)).statusCode).toBe(204)
      expect((await setup(t, linkToken(lines), OWNER_PASSWORD)).statusCode).toBe(204)
      expect((await signInWith(t, ADMIN_TOKEN, '10.45.4.1')).statusCode).toBe(401)
      expect((await signInWith(t, OWNER_PASSWORD, '10.45.4.1')).statusCode).toBe(204)
      const api = await t.app.inject({ url: '/api/admin/leads', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })
      expect(api.statusCode).toBe(200)
    })

    it('lets ADMIN_PASSWORD win: no link, links printed before are void, the password is changed on the server only', async () => {
      const before = await site()
      const token = linkToken(await startLines(before.app, before.config))
      const t = await site({ ADMIN_PASSWORD }, before)
      const lines = await startLines(t.app, t.config)
      expect(lines).toHaveLength(1)
      expect(lines[0]).toContain('(sign-in: ADMIN_PASSWORD; no one-time link is used)')
      const refused = await setup(t, token, OWNER_PASSWORD)
      expect(refused.statusCode).toBe(409)
      expect(refused.json().error.message).toBe(
        'Пароль задан переменной окружения ADMIN_PASSWORD: его меняют на сервере',
      )
      expect(await before.app.db.selectFrom('ownerSetupLink').selectAll().execute()).toEqual([])
      const cookie = cookieOf((await signInWith(t, ADMIN_PASSWORD)).headers['set-cookie'])
      expect((await session(t, cookie)).json().data.signInWith).toBe('environment')
      const change = await t.app.inject({
        method: 'PUT',
        url: '/api/admin/password',
        headers: { cookie, origin: SITE },
        payload: { current: ADMIN_PASSWORD, password: OWNER_PASSWORD },
      })
      expect(change.statusCode).toBe(409)
      expect(await ownerRows(t)).toEqual([])
    })

    it('never writes the link or the password to the log', async () => {
      const log = collectOutput()
      const t = await site({}, undefined, log.out)
      const lines = await startLines(t.app, t.config)
      const token = linkToken(lines)
      await t.app.inject({ url: `/admin/setup?token=${token}` })
      await setup(t, 'x'.repeat(30), OWNER_PASSWORD)
      expect((await setup(t, token, OWNER_PASSWORD)).statusCode).toBe(204)
      expect(log.text()).toContain('owner password set with the one-time link')
      expect(log.text()).toContain('"url":"/admin/setup"')
      expect(log.text()).not.toContain(token)
      expect(log.text()).not.toContain(OWNER_PASSWORD)
    })
  })

describe("the one-time link's page", () => {
  let t: AdminApp
  beforeAll(async () => {
    t = await buildAdminApp({ ADMIN_TOKEN: '' })
  })
  afterAll(async () => {
    await t.close()
    removeDir(t.dir)
  })

  it('is the back office page, never cached or indexed', async () => {
    const page = await t.app.inject({ url: '/admin/setup?token=abc' })
    expect(page.statusCode).toBe(200)
    expect(page.headers['x-robots-tag']).toBe('noindex, nofollow')
    expect(String(page.headers['cache-control'])).toContain('no-store')
  })
})
