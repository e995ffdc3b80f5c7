import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { ConfigError, readConfig, ROOT_DIR } from './config'
import { configuredChannels } from './delivery-config'

describe('readConfig', () => {
  it('uses the contract defaults: port 3000, SQLite at data/site.db, PUBLIC_URL from the port', () => {
    const config = readConfig({})
    expect(config.port).toBe(3000)
    expect(config.host).toBe('0.0.0.0')
    expect(config.database).toEqual({ kind: 'sqlite', path: path.join(ROOT_DIR, 'data/site.db'), explicit: false })
    expect(config.publicUrl).toBe('http://localhost:3000')
    expect(config.adminToken).toBeNull()
    expect(Object.isFrozen(config)).toBe(true)
  })

  it('selects PostgreSQL for a postgres:// DATABASE_URL and a file for file:', () => {
    expect(readConfig({ DATABASE_URL: 'postgres://u@127.0.0.1:5432/test' }).database.kind).toBe('postgres')
    expect(readConfig({ DATABASE_URL: 'file:/tmp/x.db' }).database).toEqual({
      kind: 'sqlite',
      path: '/tmp/x.db',
      explicit: true,
    })
  })

  it('seeds the demo shop by default only into the default database', () => {
    expect(readConfig({}).seedDemo).toBe(true)
    expect(readConfig({ SEED_DEMO: 'false' }).seedDemo).toBe(false)
    expect(readConfig({ DATABASE_URL: 'file:/srv/shop/site.db' }).seedDemo).toBe(false)
    expect(readConfig({ DATABASE_URL: 'postgres://u@127.0.0.1:5432/shop' }).seedDemo).toBe(false)
    expect(readConfig({ DATABASE_URL: 'file:/srv/shop/site.db', SEED_DEMO: 'true' }).seedDemo).toBe(true)
  })

  it.each([
    ['PORT', 'abc'],
    ['DATABASE_WAIT_SECONDS', '-1'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'mysql://x'],
    ['PUBLIC_URL', 'not a url'],
    ['LOG_LEVEL', 'loud'],
    ['ADMIN_TOKEN', 'short'],
    ['METRIKA_ID', '12ab'],
    ['METRIKA_TAG_URL', 'javascript:alert(1)'],
    ['METRIKA_TAG_URL', "https://x.example/tag.js';alert(1)//"],
    ['LEAD_RETENTION_DAYS', '-5'],
    ['OPERATOR_INN', '12345'],
    ['TELEGRAM_FULL_TEXT', 'maybe'],
    ['NODE_ENV', 'prod'],
  ])('refuses %s=%s naming the variable', (name, value) => {
    expect(() => readConfig({ [name]: value })).toThrowError(ConfigError)
    expect(() => readConfig({ [name]: value })).toThrowError(new RegExp(`^Invalid ${name}:`))
  })

  it.each([
    ['ADMIN_TOKEN', 'secret1', 'secret1'],
    ['DATABASE_URL', 'mysql://user:hunter2@db', 'hunter2'],
  ])('never echoes the secret value of %s in its error', (name, value, secret) => {
    expect(() => readConfig({ [name]: value })).toThrowError(
      expect.objectContaining({ message: expect.not.stringContaining(secret) }),
    )
    expect(() => readConfig({ [name]: value })).toThrowError(new RegExp(`^Invalid ${name}:`))
  })
})

describe('starting with a bad setting', () => {
  it('stops with one line naming PORT and exit code 1', () => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      cwd: ROOT_DIR,
      env: { ...process.env, PORT: 'eighty', NODE_ENV: 'production' },
      encoding: 'utf8',
      timeout: 30_000,
    })
    expect(result.status).toBe(1)
    const lines = result.stderr
      .trim()
      .split('\n')
      .filter((l) => !l.includes('ExperimentalWarning'))
    expect(lines).toEqual(['Invalid PORT: expected an integer from 0 to 65535, got "eighty"'])
  })
})

describe('lead delivery settings', () => {
  const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`

  it('turns on exactly the channels whose settings are all present', () => {
    const config = readConfig({
      SMTP_URL: 'smtp://user:pass@127.0.0.1:2525',
      LEAD_EMAIL_TO: 'owner@example.ru, manager@example.ru',
      LEAD_EMAIL_FROM: 'Витрина <site@example.ru>',
      LEAD_WEBHOOK_URL: 'https://crm.example.ru/rest/1/abc/crm.lead.add.json?x=1',
      LEAD_WEBHOOK_SECRET: secret,
    })
    expect(config.delivery.email?.to).toEqual(['owner@example.ru', 'manager@example.ru'])
    expect(config.delivery.telegram).toBeNull()
    expect(config.delivery.webhook?.url).toBe('https://crm.example.ru/rest/1/abc/crm.lead.add.json?x=1')
    expect(configuredChannels(config.delivery)).toEqual(['email', 'webhook'])
    expect(configuredChannels(readConfig({}).delivery)).toEqual([])
  })

  it.each([
    [{ SMTP_URL: 'smtp://127.0.0.1:25' }, 'LEAD_EMAIL_TO'],
    [{ SMTP_URL: 'http://x', LEAD_EMAIL_TO: 'a@b.ru', LEAD_EMAIL_FROM: 'c@d.ru' }, 'SMTP_URL'],
    [{ SMTP_URL: 'smtp://h', LEAD_EMAIL_TO: 'nobody', LEAD_EMAIL_FROM: 'c@d.ru' }, 'LEAD_EMAIL_TO'],
    [{ TELEGRAM_BOT_TOKEN: 'nope', TELEGRAM_CHAT_ID: '1' }, 'TELEGRAM_BOT_TOKEN'],
    [{ TELEGRAM_BOT_TOKEN: '123:abcdefghijklmnopqrstuvwxyz', TELEGRAM_CHAT_ID: 'x y' }, 'TELEGRAM_CHAT_ID'],
    [{ LEAD_WEBHOOK_URL: 'https://x.ru', LEAD_WEBHOOK_SECRET: 'plain-secret-text' }, 'LEAD_WEBHOOK_SECRET'],
    [{ SITE_TIMEZONE: 'Mars/Olympus' }, 'SITE_TIMEZONE'],
    [{ ADMIN_PASSWORD: 'short' }, 'ADMIN_PASSWORD'],
  ])('refuses %j naming %s', (env, name) => {
    expect(() => readConfig(env)).toThrowError(new RegExp(`^Invalid ${name}:`))
  })

  it('never echoes a channel secret in its error', () => {
    for (const env of [
      { SMTP_URL: 'ftp://u:hunter2@h', LEAD_EMAIL_TO: 'a@b.ru', LEAD_EMAIL_FROM: 'c@d.ru' },
      { TELEGRAM_BOT_TOKEN: 'hunter2', TELEGRAM_CHAT_ID: '1' },
      { LEAD_WEBHOOK_URL: 'https://x.ru', LEAD_WEBHOOK_SECRET: 'hunter2' },
    ]) {
      expect(() => readConfig(env)).toThrowError(/^Invalid /)
      try {
        readConfig(env)
      } catch (error) {
        expect((error as Error).message).not.toContain('hunter2')
      }
    }
  })
})
