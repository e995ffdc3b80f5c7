// The only reader of process.env: every setting is validated once at start and frozen.
// A bad value stops the start with one line naming the variable (CONTRACT §5).
import path from 'node:path'
import { fileURLToPath } from 'node:url'

export const ROOT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

export type DatabaseConfig =
  | { readonly kind: 'sqlite', readonly path: string }
  | { readonly kind: 'postgres', readonly url: string }

export interface Config {
  readonly port: number
  readonly host: string
  readonly isProduction: boolean
  readonly database: DatabaseConfig
  /** Canonical origin without a trailing slash, e.g. https://example.ru */
  readonly publicUrl: string
  readonly adminToken: string | null
  /** Folder with uploaded and demo images, served under /media/ */
  readonly mediaDir: string
  /** Origin that serves /media/ to browsers; '' means the site itself */
  readonly mediaUrl: string
  readonly logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent'
  /** Seconds the route map is kept before it is reloaded from the database */
  readonly structureTtl: number
  /** Fill the empty database with demo content on first start */
  readonly seedDemo: boolean
  /** Proxy addresses whose X-Forwarded-For is trusted (comma-separated list), or false */
  readonly trustProxy: string | false
  /** Yandex Metrika counter id, off when null */
  readonly metrikaId: number | null
  /** A lead sent sooner than this after the form was shown is kept as spam (0 = off) */
  readonly leadMinFillSeconds: number
  /** Lead submissions accepted per client IP per minute on POST /api/feedback (0 = no limit) */
  readonly leadRateLimit: number
}

export class ConfigError extends Error {
  constructor(readonly variable: string, reason: string) {
    super(`Invalid ${variable}: ${reason}`)
    this.name = 'ConfigError'
  }
}

type Env = Record<string, string | undefined>

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]?.trim()
  if (raw === undefined || raw === '') return fallback
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(name, `expected an integer from ${min} to ${max}, got "${raw}"`)
  }
  return Number(raw)
}

function oneOf<T extends string>(env: Env, name: string, fallback: T, allowed: readonly T[]): T {
  const raw = env[name]?.trim()
  if (raw === undefined || raw === '') return fallback
  if (!allowed.includes(raw as T)) throw new ConfigError(name, `expected one of ${allowed.join(', ')}, got "${raw}"`)
  return raw as T
}

function flag(env: Env, name: string, fallback: boolean): boolean {
  const value = oneOf(env, name, fallback ? 'true' : 'false', ['true', 'false', '1', '0'])
  return value === 'true' || value === '1'
}

function origin(env: Env, name: string, fallback: string): string {
  const raw = env[name]?.trim()
  if (raw === undefined || raw === '') return fallback
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new ConfigError(name, `expected an absolute http(s) URL, got "${raw}"`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(name, `expected an http(s) URL, got "${raw}"`)
  }
  return (url.origin + url.pathname).replace(/\/+$/, '')
}

function database(env: Env): DatabaseConfig {
  const raw = env.DATABASE_URL?.trim()
  if (raw === undefined || raw === '') return { kind: 'sqlite', path: path.join(ROOT_DIR, 'data/site.db') }
  if (raw.startsWith('file:')) {
    const file = raw.slice('file:'.length)
    if (file === '') throw new ConfigError('DATABASE_URL', 'file: needs a path, e.g. file:data/site.db')
    return { kind: 'sqlite', path: file === ':memory:' ? file : path.resolve(ROOT_DIR, file) }
  }
  if (/^postgres(ql)?:\/\//.test(raw)) {
    try {
      new URL(raw)
    } catch {
      throw new ConfigError('DATABASE_URL', 'not a valid postgres:// URL')
    }
    return { kind: 'postgres', url: raw }
  }
  throw new ConfigError('DATABASE_URL', 'expected file:<path> or postgres://… (the value is not shown)')
}

/**
 * Reads and validates the environment once. Throws ConfigError naming the first bad variable.
 * @example const config = readConfig({ PORT: '8080' })
 */
export function readConfig(env: Env = process.env): Config {
  const port = integer(env, 'PORT', 3000, 0, 65535)
  const host = env.HOST?.trim() || '0.0.0.0'
  const adminToken = env.ADMIN_TOKEN?.trim() || null
  if (adminToken !== null && adminToken.length < 16) {
    throw new ConfigError('ADMIN_TOKEN', 'must be at least 16 characters long (the value is not shown)')
  }
  const metrika = env.METRIKA_ID?.trim()
  if (metrika && !/^\d{1,12}$/.test(metrika)) throw new ConfigError('METRIKA_ID', `expected a numeric counter id, got "${metrika}"`)
  const trust = env.TRUST_PROXY?.trim()
  if (trust && !/^[0-9a-fA-F.:/, ]+$/.test(trust)) {
    throw new ConfigError('TRUST_PROXY', `expected a comma-separated list of proxy addresses, got "${trust}"`)
  }
  const config: Config = {
    port,
    host,
    isProduction: oneOf(env, 'NODE_ENV', 'development', ['development', 'production', 'test']) === 'production',
    database: database(env),
    publicUrl: origin(env, 'PUBLIC_URL', `http://localhost:${port}`),
    adminToken,
    mediaDir: path.resolve(ROOT_DIR, env.MEDIA_DIR?.trim() || 'data/media'),
    mediaUrl: origin(env, 'MEDIA_URL', ''),
    logLevel: oneOf(env, 'LOG_LEVEL', 'info', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
    structureTtl: integer(env, 'STRUCTURE_TTL', 120, 1, 86400),
    seedDemo: flag(env, 'SEED_DEMO', true),
    trustProxy: trust ? trust : false,
    metrikaId: metrika ? Number(metrika) : null,
    leadMinFillSeconds: integer(env, 'LEAD_MIN_FILL_SECONDS', 3, 0, 3600),
    leadRateLimit: integer(env, 'LEAD_RATE_LIMIT', 10, 0, 100_000),
  }
  return Object.freeze(config)
}
