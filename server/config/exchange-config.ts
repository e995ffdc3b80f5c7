// The 1C exchange's credentials (issue 35, docs/decisions/032-1c-exchange.md), read by
// server/config/config.ts: /1c/exchange is off until both EXCHANGE_1C_LOGIN and
// EXCHANGE_1C_PASSWORD are set; one without the other stops the start, so a half-made setting is
// never mistaken for a working one.
import { ConfigError, type Env } from './config-readers'

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
