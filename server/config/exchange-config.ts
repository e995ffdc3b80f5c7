// The 1C exchange's credentials (issue 35, docs/decisions/032-1c-exchange.md), read by
// server/config/config.ts: /1c/exchange is off until both EXCHANGE_1C_LOGIN and
// EXCHANGE_1C_PASSWORD are set; one without the other stops the start, so a half-made setting is
// never mistaken for a working one.
import { ConfigError, type Env } from './config-readers'
import { oneCFieldsOf, type OneCField } from '../../src/catalogue/one-c-fields'

export interface ExchangeConfig {
  /** What 1C sends as HTTP Basic credentials in «Обмен с сайтом» */
  readonly login: string
  readonly password: string
}

export function readExchangeConfig(env: Env): ExchangeConfig | null {
  const login = env.EXCHANGE_1C_LOGIN?.trim() ?? ''
  const password = env.EXCHANGE_1C_PASSWORD ?? ''
  if (!login && !password) return null
  if (!login) throw new ConfigError('EXCHANGE_1C_LOGIN', 'is required when EXCHANGE_1C_PASSWORD is set')
  if (!password) throw new ConfigError('EXCHANGE_1C_PASSWORD', 'is required when EXCHANGE_1C_LOGIN is set')
  if (login.length > 100 || login.includes(':')) {
    throw new ConfigError('EXCHANGE_1C_LOGIN', 'at most 100 characters, without a colon (HTTP Basic)')
  }
  if (password.length < 8 || password.length > 200) {
    throw new ConfigError('EXCHANGE_1C_PASSWORD', 'from 8 to 200 characters (the value is not shown)')
  }
  return Object.freeze({ login, password })
}

/**
 * EXCHANGE_1C_OVERWRITE: the fields 1C overwrites at each exchange, comma-separated (price, stock,
 * title, description, images; `none` for none), in place of the owner's choice in «Настройки»
 * (docs/decisions/044-onec-owned-fields.md). Unset: the owner's choice.
 */
export function readExchangeOverwrite(env: Env): readonly OneCField[] | null {
  const text = env.EXCHANGE_1C_OVERWRITE?.trim() ?? ''
  if (text === '') return null
  const fields = oneCFieldsOf(text)
  if (fields === null)
    throw new ConfigError(
      'EXCHANGE_1C_OVERWRITE',
      'a comma-separated list of price, stock, title, description, images, or none',
    )
  return Object.freeze(fields)
}
