// The lead delivery channels' settings, read from the environment by server/config/config.ts: each
// channel is on when all of its variables are set, and a bad value stops the start.
import { ConfigError, flag, list, origin, type Env } from './config-readers'

/** The lead delivery channels; each is on when its settings are present (docs/decisions/009-lead-delivery.md). */
export interface DeliveryConfig {
  readonly email: {
    /** smtp:// or smtps:// with the credentials inside: a secret, never logged */
    readonly smtpUrl: string
    readonly to: readonly string[]
    readonly from: string
  } | null
  readonly telegram: {
    /** A secret, never logged */
    readonly botToken: string
    readonly chatIds: readonly string[]
    /** Bot API origin, https://api.telegram.org unless overridden (tests, proxies) */
    readonly apiUrl: string
    /**
     * Whether the message carries the visitor's name, phone and e-mail (TELEGRAM_FULL_TEXT). Off by
     * default: Telegram's servers are abroad, so personal data sent there crosses the border
     * (docs/decisions/027-personal-data.md).
     */
    readonly fullText: boolean
  } | null
  readonly webhook: {
    readonly url: string
    /** Standard Webhooks signing secret (whsec_ + base64): a secret, never logged */
    readonly secret: string
  } | null
  /**
   * TELEGRAM_API_URL and TELEGRAM_FULL_TEXT, kept whoever sets the bot (the environment or the back
   * office's «Настройки»)
   */
  readonly telegramApi: { readonly apiUrl: string; readonly fullText: boolean }
}

type DeliveryChannelName = 'email' | 'telegram' | 'webhook'

/** The channels a new lead is delivered to, in a fixed order. */
export function configuredChannels(delivery: DeliveryConfig): DeliveryChannelName[] {
  return (['email', 'telegram', 'webhook'] as const).filter((channel) => delivery[channel] !== null)
}

export const EMAIL = /^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/
/** The token BotFather gives: 123456:ABC… */
export const BOT_TOKEN = /^\d+:[A-Za-z0-9_-]{20,}$/
/** A numeric chat id or an @channel name */
export const CHAT_ID = /^(-?\d{1,20}|@[A-Za-z0-9_]{5,64})$/

/** Whether a secret is whsec_ and at least 24 bytes in base64 (Standard Webhooks). */
export function isWebhookSecret(secret: string): boolean {
  const key = secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : ''
  return /^[A-Za-z0-9+/]+={0,2}$/.test(key) && Buffer.from(key, 'base64').length >= 24
}

/** All of a channel's variables or none: a half-configured channel stops the start. */
function requireAll(env: Env, names: string[]): boolean {
  const set = names.filter((name) => (env[name]?.trim() ?? '') !== '')
  if (set.length === 0) return false
  const missing = names.find((name) => !set.includes(name))
  if (missing) throw new ConfigError(missing, `is required together with ${set.join(', ')}`)
  return true
}

/** The delivery channels' variables; a bad or half-set channel stops the start (ConfigError). */
export function readDeliveryConfig(env: Env): DeliveryConfig {
  let email: DeliveryConfig['email'] = null
  if (requireAll(env, ['SMTP_URL', 'LEAD_EMAIL_TO', 'LEAD_EMAIL_FROM'])) {
    const smtpUrl = env.SMTP_URL!.trim()
    let url: URL | null = null
    try {
      url = new URL(smtpUrl)
    } catch {
      /* reported below */
    }
    if (!url || (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') || !url.hostname) {
      throw new ConfigError('SMTP_URL', 'expected smtp://user:password@host:port or smtps://… (the value is not shown)')
    }
    const to = list(env, 'LEAD_EMAIL_TO')
    const badTo = to.find((address) => !EMAIL.test(address))
    if (badTo !== undefined) throw new ConfigError('LEAD_EMAIL_TO', `not an e-mail address: "${badTo}"`)
    const from = env.LEAD_EMAIL_FROM!.trim()
    const fromAddress = /<([^<>]+)>\s*$/.exec(from)?.[1] ?? from
    if (!EMAIL.test(fromAddress)) throw new ConfigError('LEAD_EMAIL_FROM', `not an e-mail address: "${from}"`)
    email = { smtpUrl, to, from }
  }
  let telegram: DeliveryConfig['telegram'] = null
  const telegramFullText = flag(env, 'TELEGRAM_FULL_TEXT', false)
  const telegramApiUrl = origin(env, 'TELEGRAM_API_URL', 'https://api.telegram.org')
  if (requireAll(env, ['TELEGRAM_BOT_TOKEN', 'TELEGRAM_CHAT_ID'])) {
    const botToken = env.TELEGRAM_BOT_TOKEN!.trim()
    if (!BOT_TOKEN.test(botToken)) {
      throw new ConfigError(
        'TELEGRAM_BOT_TOKEN',
        'expected the token BotFather gave, 123456:ABC… (the value is not shown)',
      )
    }
    const chatIds = list(env, 'TELEGRAM_CHAT_ID')
    const badChat = chatIds.find((id) => !CHAT_ID.test(id))
    if (badChat !== undefined) {
      throw new ConfigError('TELEGRAM_CHAT_ID', `expected numeric chat ids or @channel names, got "${badChat}"`)
    }
    telegram = {
      botToken,
      chatIds,
      apiUrl: telegramApiUrl,
      fullText: telegramFullText,
    }
  }
  let webhook: DeliveryConfig['webhook'] = null
  if (requireAll(env, ['LEAD_WEBHOOK_URL', 'LEAD_WEBHOOK_SECRET'])) {
    let url: URL | null = null
    try {
      url = new URL(env.LEAD_WEBHOOK_URL!.trim())
    } catch {
      /* reported below */
    }
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
      throw new ConfigError('LEAD_WEBHOOK_URL', 'expected an absolute http(s) URL (the value is not shown)')
    }
    const secret = env.LEAD_WEBHOOK_SECRET!.trim()
    if (!isWebhookSecret(secret)) {
      throw new ConfigError(
        'LEAD_WEBHOOK_SECRET',
        'expected a Standard Webhooks secret: whsec_ and at least 24 random bytes in base64 (the value is not shown)',
      )
    }
    webhook = { url: url.href, secret }
  }
  const telegramApi = Object.freeze({ apiUrl: telegramApiUrl, fullText: telegramFullText })
  return Object.freeze({ email, telegram, webhook, telegramApi })
}
