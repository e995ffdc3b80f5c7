// The settings of the catalogue's feeds (docs/decisions/029-price-list-and-feeds.md), read by
// server/config/config.ts: the Yandex feed is off until YANDEX_FEED=true (YANDEX_FEED_VENDOR names the
// brand of the shop's own goods, offers without one); IndexNow is on when PUBLIC_URL
// names the site and INDEXNOW is not `off`, with INDEXNOW_KEY or a key the site generates once.
import { ConfigError, flag, oneOf, origin, type Env } from './config-readers'

export interface FeedsConfig {
  /** /feeds/yandex.xml is served (YANDEX_FEED) */
  readonly yandexFeed: boolean
  /** The feed's <name> and <company> (YANDEX_FEED_NAME, YANDEX_FEED_COMPANY); null: the home page's title */
  readonly shopName: string | null
  readonly company: string | null
  /** The <vendor> of an offer without a brand: the shop's own goods (YANDEX_FEED_VENDOR), or null */
  readonly defaultVendor: string | null
  /** null: IndexNow is off */
  readonly indexNow: {
    /** INDEXNOW_KEY, or null: generated once and kept in the database */
    readonly key: string | null
    /** Where batches go: https://yandex.com/indexnow unless INDEXNOW_URL says otherwise (tests, proxies) */
    readonly endpoint: string
  } | null
}

export const INDEXNOW_KEY = /^[a-zA-Z0-9-]{8,128}$/

function text(env: Env, name: string, max: number): string | null {
  const raw = env[name]?.trim()
  if (!raw) return null
  if (raw.length > max) throw new ConfigError(name, `at most ${max} characters`)
  return raw
}

export function readFeedsConfig(env: Env): FeedsConfig {
  const key = env.INDEXNOW_KEY?.trim() || null
  if (key !== null && !INDEXNOW_KEY.test(key)) {
    throw new ConfigError(
      'INDEXNOW_KEY',
      'expected 8 to 128 characters of a-z, A-Z, 0-9 and - (the value is not shown)',
    )
  }
  const mode = oneOf(env, 'INDEXNOW', 'on', ['on', 'off'])
  const endpoint = origin(env, 'INDEXNOW_URL', 'https://yandex.com/indexnow')
  // Without PUBLIC_URL the site does not know its own address, and Yandex would be told localhost.
  const publicUrlSet = (env.PUBLIC_URL?.trim() ?? '') !== ''
  return Object.freeze({
    yandexFeed: flag(env, 'YANDEX_FEED', false),
    shopName: text(env, 'YANDEX_FEED_NAME', 200),
    company: text(env, 'YANDEX_FEED_COMPANY', 500),
    defaultVendor: text(env, 'YANDEX_FEED_VENDOR', 200),
    indexNow: mode === 'on' && publicUrlSet ? Object.freeze({ key, endpoint }) : null,
  })
}
