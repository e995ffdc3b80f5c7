// The only reader of process.env: every setting is validated once at start and frozen.
// A bad value stops the start with one line naming the variable (docs/contract.md §5).
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { ConfigError, flag, integer, oneOf, origin, type Env } from './config-readers'
import { readMediaStorage, type MediaStorageConfig } from './storage-config'
import { readFeedsConfig, type FeedsConfig } from './feeds-config'
import { readDeliveryConfig, type DeliveryConfig } from './delivery-config'
import { readExchangeConfig, readExchangeOverwrite, type ExchangeConfig } from './exchange-config'
import type { OneCField } from '../../src/catalogue/one-c-fields'
import { DEFAULT_COUNTER_SRC } from '../../src/site/cookie-consent'

export { ConfigError }

/**
 * The project folder: the first one holding a package.json above the running file, so the same
 * code finds it from `server/` (tsx) and from the compiled `dist/node/` (docs/decisions/011).
 */
export const ROOT_DIR = findRoot(path.dirname(fileURLToPath(import.meta.url)))

function findRoot(dir: string): string {
  for (let at = dir; ; at = path.dirname(at)) {
    if (fs.existsSync(path.join(at, 'package.json'))) return at
    if (path.dirname(at) === at) return path.resolve(dir, '..')
  }
}

export type DatabaseConfig =
  | {
      readonly kind: 'sqlite'
      readonly path: string
      /** Named by DATABASE_URL (false: the default data/site.db) */
      readonly explicit: boolean
    }
  | {
      readonly kind: 'postgres'
      readonly url: string
      /** How long an unreachable server is waited for at start, in ms */
      readonly waitMs: number
    }

export interface Config {
  readonly port: number
  readonly host: string
  readonly isProduction: boolean
  readonly database: DatabaseConfig
  /** Canonical origin without a trailing slash, e.g. https://example.ru */
  readonly publicUrl: string
  readonly adminToken: string | null
  /** Folder of the lead journal: leads accepted while the database was down */
  readonly leadJournalDir: string
  /** Bytes the lead journals may hold together; past it the intake answers 503 (LEAD_JOURNAL_MAX_MB) */
  readonly leadJournalMaxBytes: number
  /** Folder with uploaded and demo images, served under /media/ */
  readonly mediaDir: string
  /** Origin that serves /media/ to browsers; '' means the site itself */
  readonly mediaUrl: string
  /** MEDIA_DIR, or the S3-compatible bucket every host shares (MEDIA_STORAGE=s3) */
  readonly mediaStorage: MediaStorageConfig
  readonly logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent'
  /** Bytes of rendered pages kept in memory (PAGE_CACHE_MB; 0 = no page cache) */
  readonly pageCacheBytes: number
  /** The most-visited pages rendered again after a large write (PAGE_WARM_PAGES; 0 = never) */
  readonly pageWarmPages: number
  /** Seconds the route map is kept before it is reloaded from the database */
  readonly structureTtl: number
  /** Fill the empty database with demo content on first start (default: only the default database) */
  readonly seedDemo: boolean
  /** Proxy addresses whose X-Forwarded-For is trusted (comma-separated list), or false */
  readonly trustProxy: string | false
  /** Yandex Metrika counter id, off when null */
  readonly metrikaId: number | null
  /**
   * The counter's script (METRIKA_TAG_URL, https://mc.yandex.ru/metrika/tag.js): loaded only after
   * the visitor allows analytics; its origin joins the policy's script, connect and img sources
   */
  readonly metrikaTagUrl: string
  /** A lead sent sooner than this after the form was shown is kept as spam (0 = off) */
  readonly leadMinFillSeconds: number
  /** Lead submissions accepted per client IP per minute on POST /api/feedback (0 = no limit) */
  readonly leadRateLimit: number
  /** IANA time zone in which dates are shown to the owner (e-mails, CSV, back office) */
  readonly siteTimezone: string
  /** Days a lead keeps its personal data before the daily job anonymises it (LEAD_RETENTION_DAYS; 0 = keep) */
  readonly leadRetentionDays: number
  /** The operator of personal data as the documents name it; '' = the back office's fields, or unset */
  readonly operator: { readonly name: string; readonly inn: string; readonly address: string }
  /** The back office's password; when null, ADMIN_TOKEN signs in */
  readonly adminPassword: string | null
  readonly delivery: DeliveryConfig
  /** The Yandex feed and IndexNow (docs/decisions/029-price-list-and-feeds.md) */
  readonly feeds: FeedsConfig
  /** The 1C exchange's credentials; null: /1c/exchange is off (docs/decisions/032-1c-exchange.md) */
  readonly exchange1c: ExchangeConfig | null
  /** The fields 1C overwrites at each exchange (EXCHANGE_1C_OVERWRITE); null: the owner's choice (decision 044) */
  readonly exchange1cOverwrite: readonly OneCField[] | null
  /**
   * Which of the variables the back office's «Настройки» also sets are set here: each wins over
   * the owner's value and shows read-only (docs/decisions/039-settings.md)
   */
  readonly settingsFromEnv: ReadonlySet<SettingsVariable>
}

/** The variables «Настройки» shows (server/settings/effective-settings.ts maps them to its keys). */
export const SETTINGS_VARIABLES = [
  'PUBLIC_URL',
  'SMTP_URL',
  'LEAD_EMAIL_TO',
  'LEAD_EMAIL_FROM',
  'TELEGRAM_BOT_TOKEN',
  'TELEGRAM_CHAT_ID',
  'LEAD_WEBHOOK_URL',
  'LEAD_WEBHOOK_SECRET',
  'YANDEX_FEED',
  'YANDEX_FEED_NAME',
  'YANDEX_FEED_COMPANY',
  'YANDEX_FEED_VENDOR',
  'METRIKA_ID',
  'EXCHANGE_1C_LOGIN',
  'EXCHANGE_1C_PASSWORD',
  'EXCHANGE_1C_OVERWRITE',
] as const
export type SettingsVariable = (typeof SETTINGS_VARIABLES)[number]

function database(env: Env): DatabaseConfig {
  const raw = env.DATABASE_URL?.trim()
  const waitMs = integer(env, 'DATABASE_WAIT_SECONDS', 30, 0, 3600) * 1000
  if (raw === undefined || raw === '') {
    return { kind: 'sqlite', path: path.join(ROOT_DIR, 'data/site.db'), explicit: false }
  }
  if (raw.startsWith('file:')) {
    const file = raw.slice('file:'.length)
    if (file === '') throw new ConfigError('DATABASE_URL', 'file: needs a path, e.g. file:data/site.db')
    return { kind: 'sqlite', path: file === ':memory:' ? file : path.resolve(ROOT_DIR, file), explicit: true }
  }
  if (/^postgres(ql)?:\/\//.test(raw)) {
    try {
      new URL(raw)
    } catch {
      throw new ConfigError('DATABASE_URL', 'not a valid postgres:// URL')
    }
    return { kind: 'postgres', url: raw, waitMs }
  }
  throw new ConfigError('DATABASE_URL', 'expected file:<path> or postgres://… (the value is not shown)')
}

function adminPassword(env: Env): string | null {
  const raw = env.ADMIN_PASSWORD
  if (raw === undefined || raw.trim() === '') return null
  if (raw.length < 10)
    throw new ConfigError('ADMIN_PASSWORD', 'must be at least 10 characters long (the value is not shown)')
  return raw
}

function timeZone(env: Env, name: string, fallback: string): string {
  const raw = env[name]?.trim()
  if (raw === undefined || raw === '') return fallback
  try {
    new Intl.DateTimeFormat('ru-RU', { timeZone: raw })
  } catch {
    throw new ConfigError(name, `expected an IANA time zone such as Europe/Moscow, got "${raw}"`)
  }
  return raw
}

/** ИНН: 10 digits (an organisation) or 12 (a person or sole trader). */
function inn(env: Env): string {
  const raw = env.OPERATOR_INN?.trim() ?? ''
  if (raw !== '' && !/^(\d{10}|\d{12})$/.test(raw)) {
    throw new ConfigError('OPERATOR_INN', `expected 10 or 12 digits, got "${raw}"`)
  }
  return raw
}

const METRIKA_TAG_URL = DEFAULT_COUNTER_SRC

function metrikaTagUrl(env: Env): string {
  const raw = env.METRIKA_TAG_URL?.trim()
  if (raw === undefined || raw === '') return METRIKA_TAG_URL
  let url: URL | null = null
  try {
    url = new URL(raw)
  } catch {
    /* reported below */
  }
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || /['"<>\\\s]/.test(raw)) {
    throw new ConfigError('METRIKA_TAG_URL', `expected an absolute http(s) URL of the counter's script, got "${raw}"`)
  }
  return url.href
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
  if (metrika && !/^\d{1,12}$/.test(metrika))
    throw new ConfigError('METRIKA_ID', `expected a numeric counter id, got "${metrika}"`)
  const trust = env.TRUST_PROXY?.trim()
  if (trust && !/^[0-9a-fA-F.:/, ]+$/.test(trust)) {
    throw new ConfigError('TRUST_PROXY', `expected a comma-separated list of proxy addresses, got "${trust}"`)
  }
  const db = database(env)
  const config: Config = {
    port,
    host,
    isProduction: oneOf(env, 'NODE_ENV', 'development', ['development', 'production', 'test']) === 'production',
    database: db,
    publicUrl: origin(env, 'PUBLIC_URL', `http://localhost:${port}`),
    adminToken,
    mediaDir: path.resolve(ROOT_DIR, env.MEDIA_DIR?.trim() || 'data/media'),
    leadJournalDir: path.resolve(ROOT_DIR, env.LEAD_JOURNAL_DIR?.trim() || 'data/journal'),
    leadJournalMaxBytes: integer(env, 'LEAD_JOURNAL_MAX_MB', 64, 1, 100_000) * 1024 * 1024,
    mediaUrl: origin(env, 'MEDIA_URL', ''),
    mediaStorage: readMediaStorage(env),
    logLevel: oneOf(env, 'LOG_LEVEL', 'info', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
    structureTtl: integer(env, 'STRUCTURE_TTL', 120, 1, 86400),
    pageCacheBytes: integer(env, 'PAGE_CACHE_MB', 64, 0, 4096) * 1024 * 1024,
    pageWarmPages: integer(env, 'PAGE_WARM_PAGES', 100, 0, 10_000),
    // A typo in a production DATABASE_URL must not publish the demo shop: seed by default only
    // into the database nobody chose.
    seedDemo: flag(env, 'SEED_DEMO', db.kind === 'sqlite' && !db.explicit),
    trustProxy: trust ? trust : false,
    metrikaId: metrika ? Number(metrika) : null,
    metrikaTagUrl: metrikaTagUrl(env),
    leadMinFillSeconds: integer(env, 'LEAD_MIN_FILL_SECONDS', 3, 0, 3600),
    leadRateLimit: integer(env, 'LEAD_RATE_LIMIT', 10, 0, 100_000),
    siteTimezone: timeZone(env, 'SITE_TIMEZONE', 'Europe/Moscow'),
    adminPassword: adminPassword(env),
    leadRetentionDays: integer(env, 'LEAD_RETENTION_DAYS', 365, 0, 36_500),
    operator: Object.freeze({
      name: env.OPERATOR_NAME?.trim().slice(0, 300) ?? '',
      inn: inn(env),
      address: env.OPERATOR_ADDRESS?.trim().slice(0, 500) ?? '',
    }),
    delivery: readDeliveryConfig(env),
    feeds: readFeedsConfig(env),
    exchange1c: readExchangeConfig(env),
    exchange1cOverwrite: readExchangeOverwrite(env),
    settingsFromEnv: new Set(SETTINGS_VARIABLES.filter((name) => (env[name]?.trim() ?? '') !== '')),
  }
  return Object.freeze(config)
}
