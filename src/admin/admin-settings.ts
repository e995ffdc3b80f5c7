// The back office's «Настройки» (docs/contract.md §7, docs/decisions/039-settings.md): one wire type
// for the server's answer and the screen, the settings' keys, and the calls. Secrets travel one way:
// the screen may send one, and reads back only whether it is set.
import { createHttpClient } from '../api/http-client'
import { ADMIN_API_PATHS } from '../site/paths'

/** The settings the owner types, by key; each is kept as text ('true'/'false' for a switch). */
export const PLAIN_KEYS = [
  'email.server',
  'email.login',
  'email.from',
  'email.to',
  'telegram.chatId',
  'webhook.url',
  'site.publicUrl',
  'feed.enabled',
  'feed.shopName',
  'feed.company',
  'feed.vendor',
  'metrika.id',
  'exchange.login',
  // What 1C overwrites at each exchange (src/catalogue/one-c-fields.ts): 'false' keeps the site's value
  'exchange.overwrite.price',
  'exchange.overwrite.stock',
  'exchange.overwrite.title',
  'exchange.overwrite.description',
  'exchange.overwrite.images',
] as const

/** Settings the server uses but never gives back: the API says only whether each is set. */
export const SECRET_KEYS = ['email.password', 'telegram.token', 'webhook.secret', 'exchange.password'] as const

export type PlainKey = (typeof PLAIN_KEYS)[number]
export type SecretKey = (typeof SECRET_KEYS)[number]
export type SettingKey = PlainKey | SecretKey

/** The checks of the groups: each sends or fetches something real, bounded in time. */
export const SETTING_CHECKS = ['email', 'telegram', 'webhook', 'public-url', 'feed', 'metrika'] as const
export type SettingCheck = (typeof SETTING_CHECKS)[number]

export interface SettingsAuditEntry {
  readonly at: string
  readonly who: string
  readonly key: string
  readonly action: 'set' | 'cleared' | 'generated'
}

export interface SettingsView {
  /** Every plain setting as it is in effect: the environment's value, else the owner's, else '' */
  readonly values: Readonly<Record<PlainKey, string>>
  /** Whether each secret is set (by the environment or the owner) */
  readonly secrets: Readonly<Record<SecretKey, boolean>>
  /** Settings the environment sets, with the variable's name: read-only here («задано на сервере») */
  readonly fromEnv: Readonly<Partial<Record<SettingKey, string>>>
  /** The site's address in effect (the default http://localhost:PORT while none is set) */
  readonly publicUrl: string
  /** Why 1C could not reach the site at that address, or null: not set, or a local one */
  readonly publicUrlWarning: string | null
  /** What to paste into 1C's «Обмен с сайтом» */
  readonly exchangeUrl: string
  /** The Yandex feed's address while it is on, else null */
  readonly feedUrl: string | null
  /** The channels a new lead goes to now */
  readonly channels: readonly ('email' | 'telegram' | 'webhook')[]
  /** The newest changes: who, when, which setting (never a value) */
  readonly audit: readonly SettingsAuditEntry[]
}

export interface CheckResult {
  readonly ok: boolean
  /** What happened, in Russian */
  readonly message: string
}

export interface TelegramChat {
  readonly id: string
  readonly title: string
}

export function createSettingsApi() {
  const client = createHttpClient({ baseUrl: '' })
  const data = async <T>(method: 'GET' | 'PUT' | 'POST', path: string, json?: unknown): Promise<T> =>
    (await client.request<{ data: T }>(method, path, json === undefined ? {} : { json })).data
  return {
    view: (): Promise<SettingsView> => data('GET', ADMIN_API_PATHS.settings),
    /** Only the keys given change; a secret: a new value, or null to clear it. */
    save: (changes: Partial<Record<SettingKey, string | null>>): Promise<SettingsView> =>
      data('PUT', ADMIN_API_PATHS.settings, changes),
    check: (check: SettingCheck): Promise<CheckResult> => data('POST', ADMIN_API_PATHS.settingsCheck(check), {}),
    /** A new webhook secret, shown this once */
    newWebhookSecret: (): Promise<{ secret: string }> => data('POST', ADMIN_API_PATHS.settingsWebhookSecret, {}),
    /** A new 1C password, shown this once (only its hash is kept) */
    newExchangePassword: (): Promise<{ password: string }> =>
      data('POST', ADMIN_API_PATHS.settingsExchangePassword, {}),
    /** The chats that wrote to the bot lately (Telegram's getUpdates) */
    telegramChats: (): Promise<TelegramChat[]> => data('POST', ADMIN_API_PATHS.settingsTelegramChats, {}),
  }
}

export type SettingsApi = ReturnType<typeof createSettingsApi>
