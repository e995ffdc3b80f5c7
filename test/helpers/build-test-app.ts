// A real app on a fresh SQLite file in a temp folder, driven with inject().
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { Writable } from 'node:stream'
import { buildApp, type App, type BuildOptions } from '../../server/app'
import { readConfig, type Config } from '../../server/config/config'

export interface TestApp {
  app: App
  config: Config
  dir: string
  close(): Promise<void>
}

export function tempDir(prefix = 'vitrina-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix))
}

export function testConfig(dir: string, env: Record<string, string> = {}): Config {
  return readConfig({
    DATABASE_URL: `file:${path.join(dir, 'site.db')}`,
    MEDIA_DIR: path.join(dir, 'media'),
    LEAD_JOURNAL_DIR: path.join(dir, 'journal'),
    LOG_LEVEL: 'silent',
    // An explicit DATABASE_URL is seeded only when asked: the tests want the demo shop.
    SEED_DEMO: 'true',
    NODE_ENV: 'development',
    PUBLIC_URL: 'https://shop.example.ru',
    // No test tells Yandex of its writes unless it asks to (and names a stand-in with INDEXNOW_URL).
    INDEXNOW: 'off',
    ...env,
  })
}

/** Builds the app against a new database (seeded with the demo shop unless SEED_DEMO=false). */
export async function buildTestApp(env: Record<string, string> = {}, options: BuildOptions = {}): Promise<TestApp> {
  const dir = tempDir()
  const config = testConfig(dir, env)
  // As in production: the catalogue's pages after the first rendered without Vike's renderPage()
  // (docs/decisions/036-direct-render.md); a suite that needs Vike for every page says so.
  const app = await buildApp(config, { directRender: true, ...options })
  await app.ready()
  return {
    app,
    config,
    dir,
    async close() {
      await app.close()
      fs.rmSync(dir, { recursive: true, force: true })
    },
  }
}

/** The id of the structure record at `url` (the test fails if there is none). */
export async function recordIdAt(db: App['db'], url: string): Promise<number> {
  return (await db.selectFrom('structure').select('id').where('urlFull', '=', url).executeTakeFirstOrThrow()).id
}

/** The text content of the first element matching a simple tag name, for assertions. */
export function titleOf(html: string): string | null {
  const match = /<title>([\s\S]*?)<\/title>/.exec(html)
  return match ? decodeEntities(match[1]) : null
}

export function decodeEntities(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&amp;/g, '&')
}

/** A page's visible text, for assertions: no scripts, styles or tags, entities decoded, spaces of any width one space. */
export function pageText(html: string): string {
  return decodeEntities(html.replace(/<(script|style)[\s\S]*?<\/\1>/g, ' ').replace(/<[^>]+>/g, ' '))
    .replace(/&nbsp;|\u00a0|\u202f/g, ' ')
    .replace(/\s+/g, ' ')
}

/** Listens on a free loopback port, for clients that need a real socket; returns the origin. */
export async function listen(t: TestApp): Promise<string> {
  await t.app.listen({ port: 0, host: '127.0.0.1' })
  const address = t.app.server.address()
  if (!address || typeof address === 'string') throw new Error('no port')
  return `http://127.0.0.1:${address.port}`
}

/** A stream a command-line tool writes to, and what it wrote. */
export function collectOutput() {
  let text = ''
  const out = new Writable({
    write(chunk, _enc, done) {
      text += chunk.toString()
      done()
    },
  })
  return { out, text: () => text }
}
