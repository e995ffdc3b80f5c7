// The settings in effect (docs/decisions/039-settings.md): for each one the environment's value when
// the operator set its variable (read-only in the back office), else the owner's from the database,
// else the default. Made once per stored version, frozen, and read by every consumer at use time.
import { createHash, timingSafeEqual } from 'node:crypto'
import type { Config, SettingsVariable } from '../config/config'
import type { DeliveryConfig } from '../config/delivery-config'
import type { StoredSettings } from './settings-store'
import { verifyPassword } from './secret-hash'
import type { SettingKey } from '../../src/admin/admin-settings'
import { ONE_C_FIELD_KEYS, ONE_C_FIELDS, type OneCField } from '../../src/catalogue/one-c-fields'

/** The variable that sets each key; a delivery channel's variables are all set or none (config.ts). */
export const ENV_OF: Readonly<Record<SettingKey, SettingsVariable>> = {
  'email.server': 'SMTP_URL',
  'email.login': 'SMTP_URL',
  'email.password': 'SMTP_URL',
  'email.from': 'LEAD_EMAIL_FROM',
  'email.to': 'LEAD_EMAIL_TO',
  'telegram.token': 'TELEGRAM_BOT_TOKEN',
  'telegram.chatId': 'TELEGRAM_CHAT_ID',
  'webhook.url': 'LEAD_WEBHOOK_URL',
  'webhook.secret': 'LEAD_WEBHOOK_SECRET',
  'site.publicUrl': 'PUBLIC_URL',
  'feed.enabled': 'YANDEX_FEED',
  'feed.shopName': 'YANDEX_FEED_NAME',
  'feed.company': 'YANDEX_FEED_COMPANY',
  'feed.vendor': 'YANDEX_FEED_VENDOR',
  'metrika.id': 'METRIKA_ID',
  'exchange.login': 'EXCHANGE_1C_LOGIN',
  'exchange.password': 'EXCHANGE_1C_PASSWORD',
  'exchange.overwrite.price': 'EXCHANGE_1C_OVERWRITE',
  'exchange.overwrite.stock': 'EXCHANGE_1C_OVERWRITE',
  'exchange.overwrite.title': 'EXCHANGE_1C_OVERWRITE',
  'exchange.overwrite.description': 'EXCHANGE_1C_OVERWRITE',
  'exchange.overwrite.images': 'EXCHANGE_1C_OVERWRITE',
}

/** What 1C's Basic credentials are checked against. */
export interface ExchangeCredentials {
  readonly login: string
  verify(password: string): Promise<boolean>
}

export interface EffectiveSettings {
  /** The stored version these were made from */
  readonly version: number
  /** Canonical origin without a trailing slash */
  readonly publicUrl: string
  /** PUBLIC_URL or the owner's address is set (false: the default http://localhost:PORT) */
  readonly publicUrlSet: boolean
  readonly delivery: DeliveryConfig
  readonly feeds: {
    readonly yandexFeed: boolean
    readonly shopName: string | null
    readonly company: string | null
    readonly defaultVendor: string | null
  }
  readonly metrikaId: number | null
  readonly exchange1c: ExchangeCredentials | null
  /** The fields 1C overwrites at each exchange; the rest it writes only in a product it creates (decision 044) */
  readonly exchangeOverwrite: readonly OneCField[]
  /** What the content security policy reads: one object per version, so its parts are made once */
  readonly policy: Pick<Config, 'mediaUrl' | 'metrikaId' | 'metrikaTagUrl' | 'isProduction'>
}

/** The default port of an SMTP server named without one: submission with STARTTLS. */
const SMTP_PORT = 587

/** `smtp.example.ru:465` → smtps://login:password@smtp.example.ru:465 (465 is implicit TLS). */
export function smtpUrlOf(server: string, login: string, password: string): string {
  const [host, port = String(SMTP_PORT)] = server.split(/:(?=\d+$)/)
  const auth = login ? `${encodeURIComponent(login)}:${encodeURIComponent(password)}@` : ''
  return `${port === '465' ? 'smtps' : 'smtp'}://${auth}${host}:${port}`
}

/** The server and login an SMTP_URL names, never its password. */
export function smtpServerOf(url: string): { server: string; login: string } {
  const parsed = new URL(url)
  return {
    server: parsed.port ? `${parsed.hostname}:${parsed.port}` : parsed.hostname,
    login: decodeURIComponent(parsed.username),
  }
}

const list = (text: string) =>
  text
    .split(/[,\s]+/)
    .map((item) => item.trim())
    .filter((item) => item !== '')

const sha256 = (text: string) => createHash('sha256').update(text).digest()

export function effectiveSettings(config: Config, stored: StoredSettings): EffectiveSettings {
  const env = (key: SettingKey) => config.settingsFromEnv.has(ENV_OF[key])
  const own = (key: SettingKey) => (env(key) ? '' : (stored.values.get(key) ?? ''))
  const text = (key: SettingKey) => own(key) || null

  const publicUrlSet = env('site.publicUrl') || own('site.publicUrl') !== ''
  const publicUrl = env('site.publicUrl') ? config.publicUrl : own('site.publicUrl') || config.publicUrl

  const { telegramApi } = config.delivery
  const email = env('email.server')
    ? config.delivery.email
    : own('email.server') && own('email.from') && own('email.to')
      ? {
          smtpUrl: smtpUrlOf(own('email.server'), own('email.login'), own('email.password')),
          from: own('email.from'),
          to: list(own('email.to')),
        }
      : null
  const telegram = env('telegram.token')
    ? config.delivery.telegram
    : own('telegram.token') && own('telegram.chatId')
      ? { botToken: own('telegram.token'), chatIds: list(own('telegram.chatId')), ...telegramApi }
      : null
  const webhook = env('webhook.url')
    ? config.delivery.webhook
    : own('webhook.url') && own('webhook.secret')
      ? { url: own('webhook.url'), secret: own('webhook.secret') }
      : null

  const metrikaId = env('metrika.id') ? config.metrikaId : own('metrika.id') ? Number(own('metrika.id')) : null

  let exchange1c: ExchangeCredentials | null = null
  if (config.exchange1c) {
    const expected = sha256(config.exchange1c.password)
    exchange1c = {
      login: config.exchange1c.login,
      verify: async (password) => timingSafeEqual(sha256(password), expected),
    }
  } else if (own('exchange.login') && own('exchange.password')) {
    const hash = own('exchange.password')
    exchange1c = { login: own('exchange.login'), verify: (password) => verifyPassword(password, hash) }
  }

  return Object.freeze({
    version: stored.version,
    publicUrl,
    publicUrlSet,
    delivery: Object.freeze({ email, telegram, webhook, telegramApi }),
    feeds: Object.freeze({
      yandexFeed: env('feed.enabled') ? config.feeds.yandexFeed : own('feed.enabled') === 'true',
      shopName: env('feed.shopName') ? config.feeds.shopName : text('feed.shopName'),
      company: env('feed.company') ? config.feeds.company : text('feed.company'),
      defaultVendor: env('feed.vendor') ? config.feeds.defaultVendor : text('feed.vendor'),
    }),
    metrikaId,
    exchange1c,
    // On unless the owner switched it off: today's behaviour is everything
    exchangeOverwrite: Object.freeze(
      config.exchange1cOverwrite ?? ONE_C_FIELDS.filter((field) => own(ONE_C_FIELD_KEYS[field]) !== 'false'),
    ),
    policy: Object.freeze({
      mediaUrl: config.mediaUrl,
      metrikaId,
      metrikaTagUrl: config.metrikaTagUrl,
      isProduction: config.isProduction,
    }),
  })
}
