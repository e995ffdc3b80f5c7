// The one reader of the environment for the command-line tools: where the site is and the token.
import path from 'node:path'
import { createHttpClient, type HttpClient } from '../../src/api/http-client'
import { createModelApi, type ModelApi } from '../../src/api/model-api'
import { undiciFetch } from './undici-fetch'

export interface ToolConfig {
  /** Origin of the running site, without a trailing slash (VITRINA_URL). */
  readonly baseUrl: string
  /** ADMIN_TOKEN, or null when unset. */
  readonly adminToken: string | null
  /** SITE_TIMEZONE: where dates in exports are read (Europe/Moscow unless set) */
  readonly timeZone: string
}

export function readToolConfig(env: Record<string, string | undefined> = process.env): ToolConfig {
  const raw = env.VITRINA_URL?.trim() || 'http://localhost:3000'
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new UsageError(`VITRINA_URL is not a valid URL: "${raw}"`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`VITRINA_URL must be http(s): "${raw}"`)
  return Object.freeze({
    baseUrl: (url.origin + url.pathname).replace(/\/+$/, ''),
    adminToken: env.ADMIN_TOKEN?.trim() || null,
    timeZone: siteTimeZone(env.SITE_TIMEZONE?.trim() || 'Europe/Moscow'),
  })
}

function siteTimeZone(zone: string): string {
  try {
    new Intl.DateTimeFormat('ru-RU', { timeZone: zone })
    return zone
  } catch {
    throw new UsageError(`SITE_TIMEZONE is not an IANA time zone: "${zone}"`)
  }
}

/** A mistake in how the tool was called: printed to stderr, exit code 1. */
export class UsageError extends Error {
  override readonly name = 'UsageError'
}

export function requireToken(config: ToolConfig): string {
  if (config.adminToken === null)
    throw new UsageError('ADMIN_TOKEN is not set: the API refuses this without the admin token')
  return config.adminToken
}

interface ToolApi {
  readonly api: ModelApi
  /** The site's other JSON routes (/api/deliveries …) */
  readonly http: HttpClient
  /** Fetches a file from the site (a /media/ image) as bytes. */
  fetchBytes(path: string): Promise<{ bytes: Buffer; contentType: string }>
}

export async function createToolApi(config: ToolConfig, timeoutMs = 60_000): Promise<ToolApi> {
  const undici = await import('undici')
  const fetch = await undiciFetch()
  const http = createHttpClient({ baseUrl: config.baseUrl, fetch, timeoutMs })
  const api = createModelApi(http)
  return {
    api,
    http,
    async fetchBytes(path) {
      const response = await undici.fetch(`${config.baseUrl}${path}`, { signal: AbortSignal.timeout(timeoutMs) })
      if (!response.ok) throw new Error(`GET ${path} answered ${response.status}`)
      return {
        bytes: Buffer.from(await response.arrayBuffer()),
        contentType: response.headers.get('content-type') ?? '',
      }
    },
  }
}

/**
 * A path the operator typed, relative to the folder they typed it in: `npm run` moves the tool to
 * the package root but keeps the caller's folder in INIT_CWD.
 */
export function userPath(file: string, env: NodeJS.ProcessEnv = process.env): string {
  return path.resolve(env.INIT_CWD ?? process.cwd(), file)
}

/** Runs a tool's main: usage errors and failures go to stderr with exit code 1. */
export function runTool(main: (argv: string[]) => Promise<void>): void {
  main(process.argv.slice(2)).catch((error: unknown) => {
    const message = error instanceof Error ? error.message : String(error)
    process.stderr.write(`${error instanceof UsageError ? 'Usage error' : 'Error'}: ${message}\n`)
    process.exitCode = 1
  })
}
