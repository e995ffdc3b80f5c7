import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { ConfigError, readConfig, ROOT_DIR } from './config'

describe('readConfig', () => {
  it('uses the contract defaults: port 3000, SQLite at data/site.db, PUBLIC_URL from the port', () => {
    const config = readConfig({})
    expect(config.port).toBe(3000)
    expect(config.host).toBe('0.0.0.0')
    expect(config.database).toEqual({ kind: 'sqlite', path: path.join(ROOT_DIR, 'data/site.db') })
    expect(config.publicUrl).toBe('http://localhost:3000')
    expect(config.adminToken).toBeNull()
    expect(Object.isFrozen(config)).toBe(true)
  })

  it('selects PostgreSQL for a postgres:// DATABASE_URL and a file for file:', () => {
    expect(readConfig({ DATABASE_URL: 'postgres://u@127.0.0.1:5432/test' }).database.kind).toBe('postgres')
    expect(readConfig({ DATABASE_URL: 'file:/tmp/x.db' }).database).toEqual({ kind: 'sqlite', path: '/tmp/x.db' })
  })

  it.each([
    ['PORT', 'abc'], ['PORT', '70000'], ['DATABASE_URL', 'mysql://x'], ['PUBLIC_URL', 'not a url'],
    ['LOG_LEVEL', 'loud'], ['ADMIN_TOKEN', 'short'], ['METRIKA_ID', '12ab'], ['NODE_ENV', 'prod'],
  ])('refuses %s=%s naming the variable', (name, value) => {
    expect(() => readConfig({ [name]: value })).toThrowError(ConfigError)
    expect(() => readConfig({ [name]: value })).toThrowError(new RegExp(`^Invalid ${name}:`))
  })

  it('never echoes a secret value in its error', () => {
    try {
      readConfig({ ADMIN_TOKEN: 'secret1' })
    } catch (error) {
      expect((error as Error).message).not.toContain('secret1')
    }
    try {
      readConfig({ DATABASE_URL: 'mysql://user:hunter2@db' })
    } catch (error) {
      expect((error as Error).message).not.toContain('hunter2')
    }
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
    const lines = result.stderr.trim().split('\n').filter((l) => !l.includes('ExperimentalWarning'))
    expect(lines).toEqual(['Invalid PORT: expected an integer from 0 to 65535, got "eighty"'])
  })
})
