// The typed readers of environment variables that config.ts builds the Config from: each names
// its variable in the ConfigError it throws, so a bad value stops the start with one clear line.

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    reason: string,
  ) {
    super(`Invalid ${variable}: ${reason}`)
    this.name = 'ConfigError'
  }
}

export type Env = Record<string, string | undefined>

export function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]?.trim()
  if (raw === undefined || raw === '') return fallback
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(name, `expected an integer from ${min} to ${max}, got "${raw}"`)
  }
  return Number(raw)
}

export function oneOf<T extends string>(env: Env, name: string, fallback: T, allowed: readonly T[]): T {
  const raw = env[name]?.trim()
  if (raw === undefined || raw === '') return fallback
  if (!allowed.includes(raw as T)) throw new ConfigError(name, `expected one of ${allowed.join(', ')}, got "${raw}"`)
  return raw as T
}

export function flag(env: Env, name: string, fallback: boolean): boolean {
  const value = oneOf(env, name, fallback ? 'true' : 'false', ['true', 'false', '1', '0'])
  return value === 'true' || value === '1'
}

export function origin(env: Env, name: string, fallback: string): string {
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

export function list(env: Env, name: string): string[] {
  return (env[name] ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '')
}
