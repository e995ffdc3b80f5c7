// The first moment of an outage: the database goes away after the reachability check said it was
// there and before a page's data is loaded. The answer is still the outage page (503, Retry-After),
// never a 500 and never a cached error; the next request takes the outage path without touching
// the database; once it is back the page renders and is cached as usual. The clock of the content
// version check is the test's, so "after the check, before the load" is exact, not a race.
// The race is run where the database can really go away: PostgreSQL behind a proxy the test cuts.
// On SQLite no lock makes that moment: in WAL mode a reader never waits for a writer, so another
// connection holding the write lock past the busy timeout (the lock of test/helpers/sqlite-lock.ts)
// leaves every page answered from the database.
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { buildApp, type App } from '../../server/app'
import { tempDir, testConfig } from '../helpers/build-test-app'
import { createTestSchema, TEST_DATABASE_URL, type TestSchema } from '../helpers/postgres'
import { lockDatabase } from '../helpers/sqlite-lock'
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy'

let clock = Date.parse('2026-11-25T12:00:00Z')
const now = () => new Date(clock)
const cleanups: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function start(env: Record<string, string>, directRender = false): Promise<{ app: App; dir: string }> {
  const dir = tempDir()
  const app = await buildApp(testConfig(dir, env), { now, directRender })
  await app.ready()
  cleanups.push(async () => {
    await app.close()
    fs.rmSync(dir, { recursive: true, force: true })
  })
  return { app, dir }
}

/** What a visitor gets while and after the database goes away; `cut` and `heal` do it. */
async function expectOutageAnswers(app: App, cut: () => void, heal: () => void) {
  const get = (url: string) => app.inject({ method: 'GET', url })
  const seen = await get('/structure/')
  expect(seen.statusCode).toBe(200)

  cut() // the version check just said "reachable", and will not look again for a second
  const unseen = await get('/structure/product')
  expect(unseen.statusCode).toBe(503)
  expect(unseen.headers['retry-after']).toBe('30')
  expect(unseen.headers['cache-control']).toBe('no-store')
  expect(unseen.body).toContain('Сайт временно недоступен')
  // Its one style is allowed by its hash (the page's CSP allows no other inline style).
  const style = /<style>([^<]*)<\/style>/.exec(unseen.body)![1]
  const hash = createHash('sha256').update(style).digest('base64')
  expect(unseen.headers['content-security-policy']).toContain(`style-src 'self' 'sha256-${hash}'`)
  expect(unseen.body).not.toContain(' style=')
  expect((await get('/sitemap.xml')).statusCode).toBe(503)
  expect((await get('/structure/')).body).toBe(seen.body) // the kept copy

  heal() // back, but the process does not know yet: it must not have asked the database again
  expect((await get('/structure/product')).statusCode).toBe(503)

  clock += 1100 // the next version check finds the database
  const fresh = await get('/structure/product')
  expect([fresh.statusCode, fresh.headers['x-vitrina-cache']]).toEqual([200, 'miss'])
  expect((await get('/structure/product')).headers['x-vitrina-cache']).toBe('hit')
}

describe('pages while another connection holds SQLite’s write lock', () => {
  it('are answered from the database, not the outage page: WAL readers do not wait for a writer', async () => {
    const site = await start({})
    const get = (url: string) => site.app.inject({ method: 'GET', url })
    expect((await get('/structure/')).statusCode).toBe(200)

    const release = await lockDatabase(site)
    try {
      // The lock is real: a write waits past the busy timeout, and the lead goes to the journal.
      const lead = { username: 'Вера', phone: '+7 912 345-67-89', email: 'vera@example.ru', consent: true }
      expect((await site.app.inject({ method: 'POST', url: '/api/feedback', payload: lead })).statusCode).toBe(202)
      clock += 1100 // a version check under the lock
      const unseen = await get('/structure/product')
      expect([unseen.statusCode, unseen.headers['x-vitrina-cache']]).toEqual([200, 'miss'])
      expect((await get('/structure/product')).headers['x-vitrina-cache']).toBe('hit')
      expect((await get('/sitemap.xml')).statusCode).toBe(200)
      expect(site.app.content.databaseReachable).toBe(true)
    } finally {
      await release()
    }
  })
})

describe('a page whose data load meets a database that just went away', () => {
  // Vike's renderPage(), and the catalogue's own path once it learned the page (decision 036).
  for (const directRender of [false, true]) {
    const how = directRender ? 'rendered without Vike' : 'rendered by Vike'
    it.skipIf(!TEST_DATABASE_URL)(
      `answers the outage page, not 500, on PostgreSQL (the connection cut), ${how}`,
      async () => {
        const schema: TestSchema = await createTestSchema()
        cleanups.push(() => schema.drop())
        const target = new URL(TEST_DATABASE_URL!)
        const proxy: TcpProxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) })
        cleanups.push(() => proxy.close())
        const url = new URL(schema.url)
        url.host = `127.0.0.1:${proxy.port}`
        const { app } = await start({ DATABASE_URL: url.href }, directRender)
        await expectOutageAnswers(
          app,
          () => proxy.cut(),
          () => proxy.heal(),
        )
        // The first page taught the path; the pages after the outage went through it.
        expect(app.pages.renderings.direct > 0).toBe(directRender)
      },
    )
  }
})
