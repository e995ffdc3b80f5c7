// The back office under test: a real app on a SQLite file with a clock the test moves, and the
// requests a signed-in browser sends (its cookie, its Origin).
import fs from 'node:fs'
import { buildApp, type App } from '../../server/app'
import type { Config } from '../../server/config/config'
import { tempDir, testConfig } from '../helpers/build-test-app'

export const SITE = 'https://shop.example.ru'
export const ADMIN_TOKEN = 'test-admin-token-0123456789abcdef'
export const ADMIN_PASSWORD = 'пароль-владельца-2026'

/** A clock that stands still unless the test moves it. */
export class TestClock {
  private at = Date.parse('2026-03-02T09:00:00.000Z')
  readonly now = () => new Date(this.at)
  advance(ms: number): void {
    this.at += ms
  }
}

export interface AdminApp {
  app: App
  config: Config
  dir: string
  clock: TestClock
  close(): Promise<void>
}

/** Builds the app on `dir` (a new folder unless given, to rebuild on the same database). */
export async function buildAdminApp(
  env: Record<string, string> = {},
  dir = tempDir('vitrina-admin-'),
  clock = new TestClock(),
  logStream?: NodeJS.WritableStream,
): Promise<AdminApp> {
  const config = testConfig(dir, { ADMIN_TOKEN, ...env })
  const app = await buildApp(config, { now: clock.now, logStream })
  await app.ready()
  return { app, config, dir, clock, close: () => app.close() }
}

export function removeDir(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true })
}

/** Signs in and returns the Cookie header a browser would send afterwards. */
export async function signIn(app: App, secret = ADMIN_TOKEN, remoteAddress = '127.0.0.1'): Promise<string> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/admin/session',
    headers: { origin: SITE },
    payload: { secret },
    remoteAddress,
  })
  if (response.statusCode !== 204) throw new Error(`sign-in answered ${response.statusCode}: ${response.body}`)
  return cookieOf(response.headers['set-cookie'])
}

/** The `name=value` pair of the session cookie a response sets. */
export function cookieOf(setCookie: string | string[] | undefined): string {
  const line = [setCookie ?? []].flat().find((header) => header.startsWith('vitrina_admin='))
  if (!line) throw new Error('no session cookie set')
  return line.split(';')[0]
}
