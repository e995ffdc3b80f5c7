// The catalogue at scale (issue 22, docs/decisions/031-sections-and-scale.md): a generated
// catalogue of 10,000 products in 200 sections (or BENCH_PRODUCTS, e.g. 100000, by hand), written
// straight into the database in batches, then the production build on it, on SQLite and on
// PostgreSQL (where TEST_DATABASE_URL names a server): start-up and RSS, the route map's reload,
// uncached section pages 1 and 50, an uncached product page, the home page's size and sitemap.xml;
// a section with two filters by characteristic set and its counts (issue 46: p99 ≤ 20 ms one at a
// time, docs/decisions/042-characteristics-and-filters.md; every product has five characteristics);
// the search (1, 2 and 3 words, a rare prefix, an артикул) and the inbox's search among BENCH_LEADS
// leads (100,000 by default), each with the plan its database chooses (issue #36). The catalogue is
// indexed for search through the write door, as a large import is, so PostgreSQL's statistics are
// the ones the door leaves (it runs ANALYZE after a write of 2,000 records or more), not a manual
// ANALYZE. BENCH_DATABASES=postgres (or sqlite) measures one database only.
// Part of `npm run bench`; alone: `npm run bench:catalogue` (`-- 2` for 2 s per URL).
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { CompiledQuery, Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely'
import pg from 'pg'
import { Pool } from 'undici'
import { CatalogueSearch } from '../../server/catalogue/search/search-service'
import { WriteDoor } from '../../server/catalogue/write-door'
import { readConfig } from '../../server/config/config'
import { RouteMapCache } from '../../server/content/route-map'
import { openDatabase, type Db } from '../../server/data/db'
import type { Database } from '../../server/data/schema'
import { SQLite } from '../../server/data/sqlite-driver'
import { leadMatchesQuery } from '../../server/leads/store/lead-search-query'
import { leadSearchNeedle } from '../../server/leads/store/lead-search'
import { insertManyLeads } from '../helpers/many-leads'
import { tempDir } from '../helpers/build-test-app'
import { generateCatalogue } from '../helpers/catalogue'
import { DEFAULT_SECTION_QUERY, sectionSearch, type SectionQuery } from '../../src/site/section-query'
import { createTestSchema, TEST_DATABASE_URL } from '../helpers/postgres'
import { ensureBuild, startProdServer } from '../helpers/prod-server'
import { answerSizes, percentile, pinLoadGenerator, rssMiB, runLoad, type BenchRequest } from './load'

const CONCURRENCY = 10
const SERVER_CPU = 1
const SECTIONS = 200
/** The first section is long enough for a page 50 (24 a page) */
const LONG_SECTION = 1500
/** Issue 22's floors, SQLite, 10,000 products */
const FLOORS = { startupMs: 2000, rssMiB: 250, pageCpuMs: 3, homeKiB: 60 }

const ADMIN_TOKEN = 'bench-admin-token-0123456789'
/** Issue #36: search pages and the inbox's search, p99 on either database */
const SEARCH_P99_MS = 15
const INBOX_P99_MS = 20
/** Issue 46: a section's page with two filters by characteristic set and its counts, p99 on either database */
const FILTER_P99_MS = 20

/**
 * The search's shapes on the generated catalogue (titles «Дрель модель 07919», артикулы «G-n»):
 * 1, 2 and 3 words, a prefix only a few numbers start with (the last word is looked up as a
 * prefix), and an артикул typed without its dash.
 */
const SEARCHES: [label: string, q: string][] = [
  ['search: 1 word', 'дрель'],
  ['search: 2 words', 'дрель модель'],
  ['search: 3 words', 'ключ модель 07919'],
  ['search: rare prefix', 'модель 0791'],
  ['search: артикул', 'g4242'],
]

/** The inbox's search among the leads (test/helpers/many-leads.ts): a name and number, a phone, an e-mail. */
const INBOX_SEARCHES: [label: string, q: string][] = [
  ['inbox: «покупатель 4242»', 'покупатель 4242'],
  ['inbox: a phone «8 900 000-42-42»', '8 900 000-42-42'],
  ['inbox: an e-mail «buyer4242@»', 'buyer4242@'],
]

/**
 * More URLs measured like the section and product pages (uncached, CPU ms/req, p50/p99): the
 * search's queries (`/poisk?q=…`), one line each.
 */
export const CATALOGUE_TARGETS: [label: string, request: BenchRequest][] = SEARCHES.map(([label, q]) => [
  label,
  { method: 'GET', path: `/poisk?q=${encodeURIComponent(q)}` },
])

/** The inbox's searches as the back office asks (a session cookie: a bearer token is counted per request). */
function inboxTargets(cookie: string): Target[] {
  return INBOX_SEARCHES.map(([label, q]) => ({
    label,
    request: { method: 'GET', path: `/api/admin/leads?tab=new&q=${encodeURIComponent(q)}`, headers: { cookie } },
  }))
}

/** Requests sent one at a time after a warm-up: the latency a visitor (or the owner) sees. */
const SEQUENTIAL = { warmUp: 20, requests: 300 }

async function oneAtATime(pool: Pool, request: BenchRequest) {
  const times: number[] = []
  const statuses = new Map<number, number>()
  for (let i = 0; i < SEQUENTIAL.warmUp + SEQUENTIAL.requests; i++) {
    const started = performance.now()
    const res = await pool.request({ method: request.method, path: request.path, headers: request.headers })
    await res.body.arrayBuffer()
    if (i < SEQUENTIAL.warmUp) continue
    times.push(performance.now() - started)
    statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1)
  }
  times.sort((a, b) => a - b)
  const status = [...statuses].map(([code, count]) => `${code}×${count}`).join(' ')
  return { p50: percentile(times, 50), p99: percentile(times, 99), max: times.at(-1) ?? NaN, status }
}

/** The back office's session cookie, signed in with the token. */
async function signIn(base: string): Promise<string> {
  const res = await fetch(`${base}/api/admin/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify({ secret: ADMIN_TOKEN }),
  })
  if (res.status !== 204) throw new Error(`sign-in answered ${res.status}: ${await res.text()}`)
  const cookie = res.headers.getSetCookie().find((line) => line.startsWith('vitrina_admin='))
  if (!cookie) throw new Error('no session cookie')
  return cookie.split(';')[0]
}

interface Target {
  label: string
  request: BenchRequest
}

function targets(characteristics: Readonly<Record<string, number>>): Target[] {
  const get = (p: string): BenchRequest => ({ method: 'GET', path: p })
  const brand = characteristics['Бренд']
  const power = characteristics['Мощность']
  // Two filters by characteristic, spelled canonically (any other spelling is a 301).
  const filters = { values: [{ id: brand, values: ['Bosch', 'Makita'] }], ranges: [{ id: power, min: 800, max: 1500 }] }
  const filtered = (change: Partial<SectionQuery>) => sectionSearch({ ...DEFAULT_SECTION_QUERY, ...filters, ...change })
  return [
    { label: 'filters: section of ~500, brand + power', request: get(`/structure/gen-2/${filtered({})}`) },
    { label: 'filters: section of 1,500, brand + power', request: get(`/structure/gen-1/${filtered({})}`) },
    {
      label: 'filters: section of 1,500, page 2 by price',
      request: get(`/structure/gen-1/${filtered({ page: 2, sort: 'price' })}`),
    },
    { label: 'section page 1', request: get('/structure/gen-1/') },
    { label: 'section page 50', request: get('/structure/gen-1/?page=50') },
    { label: 'section page 2, by price', request: get('/structure/gen-1/?page=2&sort=price') },
    { label: 'section of 43, filtered', request: get('/structure/gen-2/?avail=in_stock&max=400') },
    { label: 'product page', request: get('/structure/gen-1/p-777') },
    { label: 'home /', request: get('/') },
    ...CATALOGUE_TARGETS.map(([label, request]) => ({ label, request })),
  ]
}

/** One database: generated, measured, dropped. */
async function benchOn(dialect: 'SQLite' | 'PostgreSQL', products: number, leads: number, durationMs: number) {
  const dir = tempDir('vitrina-bench-catalogue-')
  const schema = dialect === 'PostgreSQL' ? await createTestSchema() : null
  const env: Record<string, string> = {
    LOG_LEVEL: 'error',
    PAGE_CACHE_MB: '0',
    LEAD_RATE_LIMIT: '0',
    ADMIN_TOKEN,
  }
  if (schema) env.DATABASE_URL = schema.url
  try {
    // The schema and the demo shop by a server of its own, then the catalogue straight into the database.
    const seeding = await startProdServer(env, dir)
    await seeding.stop()
    const config = readConfig({ DATABASE_URL: schema?.url ?? `file:${path.join(dir, 'site.db')}` })
    const db = await openDatabase(config.database)
    const started = performance.now()
    const made = await generateCatalogue(db, {
      sections: SECTIONS,
      products,
      firstSection: LONG_SECTION,
      properties: true,
    })
    // Indexed for search by the write door, as an import is (the generator writes rows only):
    // start-up then measures a site's ordinary start, and PostgreSQL's statistics are what the
    // door's ANALYZE after a large write leaves.
    const ids = (await db.selectFrom('structure').select('id').execute()).map((row) => row.id)
    await new WriteDoor(db, { indexNowOrigin: null }).write((unit) => unit.touch(ids), { announce: false })
    const generateS = (performance.now() - started) / 1000
    const leadsStarted = performance.now()
    await insertManyLeads(db, leads)
    // Leads arrive one at a time in life, and autovacuum keeps their statistics; not in one go.
    if (schema) await sql`analyze "feedback"`.execute(db)
    const leadsS = (performance.now() - leadsStarted) / 1000
    const reload = await routeMapReload(db)
    const plans = await searchPlans(
      db,
      config.database.kind === 'sqlite' ? { file: config.database.path } : { url: schema!.url },
    )
    await db.destroy()

    const server = await startProdServer(env, dir, { cpu: SERVER_CPU })
    const pid = server.child.pid!
    const startup = { ms: server.startupMs() ?? NaN, rss: rssMiB(pid) }
    const pool = new Pool(server.url, { connections: CONCURRENCY })
    const rows: Record<string, string | number>[] = []
    let homeKiB = NaN
    let sitemap = { ms: NaN, kib: NaN, urls: 0 }
    try {
      const cookie = await signIn(server.url)
      for (const { label, request } of [...targets(made.characteristics), ...inboxTargets(cookie)]) {
        const load = await runLoad(pool, pid, request, {}, durationMs, CONCURRENCY)
        const sizes = await answerSizes(pool, request)
        if (label === 'home /') homeKiB = sizes.raw / 1024
        rows.push({
          [`${dialect}, ${made.products} products`]: label,
          'req/s': Math.round(load.perSecond),
          'p50 ms': load.p50.toFixed(2),
          'p99 ms': load.p99.toFixed(2),
          'CPU ms/req': load.cpuMsPerRequest.toFixed(3),
          'KiB raw': (sizes.raw / 1024).toFixed(1),
          statuses: load.statuses,
        })
      }
      sitemap = await sitemapTime(server.url)
      const afterLoad = rssMiB(pid)
      console.log(
        `${dialect}: ${made.products} products in ${made.sections.length} sections generated and indexed in ${generateS.toFixed(1)} s; ` +
          `start-up ${Math.round(startup.ms)} ms, RSS ${Math.round(startup.rss)} MiB after start, ${Math.round(afterLoad)} MiB after the load; ` +
          `route map reload ${reload.ms.toFixed(0)} ms, ${reload.cpuMs.toFixed(0)} ms CPU (median of 5, in the bench's process), ` +
          `holding the event loop ${reload.holdMs.toFixed(0)} ms at most, ` +
          `its heap ~${reload.heapMiB.toFixed(1)} MiB; ` +
          `sitemap.xml ${sitemap.ms.toFixed(0)} ms, ${sitemap.kib.toFixed(0)} KiB, ${sitemap.urls} URLs; ` +
          `${leads} leads inserted in ${leadsS.toFixed(1)} s`,
      )
      console.table(rows)
      console.log(`${dialect}: the plans of the searches (what reads the index):`)
      for (const [label, plan] of plans) console.log(`  ${label}: ${plan}`)
      const single = new Pool(server.url, { connections: 1 })
      const sequential: Record<string, string | number>[] = []
      try {
        for (const { label, request } of [...targets(made.characteristics), ...inboxTargets(cookie)]) {
          const floor = label.startsWith('search:')
            ? SEARCH_P99_MS
            : label.startsWith('inbox:')
              ? INBOX_P99_MS
              : label.startsWith('filters:')
                ? FILTER_P99_MS
                : null
          if (floor === null) continue
          const timing = await oneAtATime(single, request)
          sequential.push({
            [`${dialect}, ${made.products} products, ${leads} leads, one at a time`]: label,
            'p50 ms': timing.p50.toFixed(2),
            'p99 ms': timing.p99.toFixed(2),
            'max ms': timing.max.toFixed(2),
            'p99 floor ms': floor,
            'p99 met': timing.p99 <= floor ? 'met' : 'NOT met',
            statuses: timing.status,
          })
        }
      } finally {
        await single.close()
      }
      console.table(sequential)
      return { dialect, products: made.products, startup, reload, rows, homeKiB, sitemap }
    } finally {
      await pool.close()
      await server.stop()
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
    await schema?.drop()
  }
}

/**
 * Each search shape's SQL, caught as the search runs it (a Kysely of its own that logs), and the
 * plan its database chooses for each statement that reads the search index: the lines that say
 * how a table is read. The inbox's too (the query that gathers a term's matches).
 */
async function searchPlans(db: Db, where: { file: string } | { url: string }) {
  const caught: CompiledQuery[] = []
  const log = (event: { level: string; query: CompiledQuery }) => {
    if (event.level === 'query') caught.push(event.query)
  }
  let close: () => Promise<void>
  let logging: Kysely<Database>
  if ('url' in where) {
    const pool = new pg.Pool({ connectionString: where.url, max: 1 })
    logging = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log })
    close = () => logging.destroy()
  } else {
    logging = new Kysely<Database>({ dialect: new SqliteDialect({ database: new SQLite(where.file) }), log })
    close = () => logging.destroy()
  }
  const sqlite = !('url' in where)
  const explain = async (query: CompiledQuery) => {
    const prefix = sqlite ? 'EXPLAIN QUERY PLAN ' : 'EXPLAIN '
    const result = await db.executeQuery<Record<string, unknown>>(
      CompiledQuery.raw(prefix + query.sql, [...query.parameters]),
    )
    const lines = result.rows.map((row) => String(sqlite ? row.detail : row['QUERY PLAN']))
    return lines
      .filter((line) => /Scan|SCAN|SEARCH|Index/.test(line))
      .map((line) =>
        line
          .trim()
          .replace(/^->\s*/, '')
          .replace(/\s+\(cost=.*$/, ''),
      )
  }
  const plans: [string, string][] = []
  try {
    const search = new CatalogueSearch(logging)
    for (const [label, q] of SEARCHES) {
      caught.length = 0
      const answer = await search.find(q, 1)
      const reading = caught.filter((query) => /"searchIndex|"searchWord"/.test(query.sql))
      const lines = [...new Set((await Promise.all(reading.map(explain))).flat())]
      plans.push([`${label} «${q}» (${answer.products.length} found)`, lines.join('; ')])
    }
    for (const [label, q] of INBOX_SEARCHES) {
      const lines = await explain(leadMatchesQuery(db, leadSearchNeedle(q)!, 2001).compile(db))
      plans.push([label, lines.join('; ')])
    }
  } finally {
    await close()
  }
  return plans
}

/** V8's collector, when node runs with --expose-gc (the bench scripts do) */
const gc = (globalThis as { gc?: () => void }).gc

/** The route map loaded anew five times in this process: the median time, the heap it holds, and the longest it held the event loop. */
async function routeMapReload(db: Awaited<ReturnType<typeof openDatabase>>) {
  const times: number[] = []
  const cpus: number[] = []
  const heaps: number[] = []
  const holds: number[] = []
  for (let i = 0; i < 5; i++) {
    gc?.()
    const before = process.memoryUsage().heapUsed
    const started = performance.now()
    const cpu = process.cpuUsage()
    // The longest the load held the event loop: what a request arriving meanwhile waits at most.
    let loading = true
    let last = performance.now()
    const spin = () => {
      if (!loading) return
      holds.push(performance.now() - last)
      last = performance.now()
      setImmediate(spin)
    }
    setImmediate(spin)
    const map = await new RouteMapCache(db, 120).get()
    loading = false
    holds.push(performance.now() - last)
    const used = process.cpuUsage(cpu)
    cpus.push((used.user + used.system) / 1000)
    times.push(performance.now() - started)
    gc?.()
    heaps.push((process.memoryUsage().heapUsed - before) / 1024 / 1024)
    if (map.byId.size === 0) throw new Error('empty route map')
  }
  times.sort((a, b) => a - b)
  cpus.sort((a, b) => a - b)
  // The first load's heap: later ones reuse what V8 keeps of the first (interned strings, shapes).
  return { ms: percentile(times, 50), cpuMs: percentile(cpus, 50), heapMiB: heaps[0], holdMs: Math.max(...holds) }
}

/** sitemap.xml (and its files, past 50,000 URLs) one request at a time: the median of five. */
async function sitemapTime(base: string) {
  const times: number[] = []
  let bytes = 0
  let urls = 0
  for (let i = 0; i < 5; i++) {
    const started = performance.now()
    const index = await (await fetch(`${base}/sitemap.xml`)).text()
    let total = index.length
    let count = (index.match(/<url>/g) ?? []).length
    for (const [, file] of index.matchAll(/<sitemap><loc>[^<]*(\/sitemap-\d+\.xml)<\/loc>/g)) {
      const text = await (await fetch(base + file)).text()
      total += text.length
      count += (text.match(/<url>/g) ?? []).length
    }
    times.push(performance.now() - started)
    bytes = total
    urls = count
  }
  times.sort((a, b) => a - b)
  return { ms: percentile(times, 50), kib: bytes / 1024, urls }
}

/** The catalogue part of the bench: SQLite, then PostgreSQL where a server is named. */
export async function benchCatalogue(durationMs: number): Promise<void> {
  const products = Number(process.env.BENCH_PRODUCTS ?? 10_000)
  const leads = Number(process.env.BENCH_LEADS ?? 100_000)
  const only = process.env.BENCH_DATABASES?.toLowerCase()
  console.log(
    `Catalogue at scale: ${products} products in ${SECTIONS} sections (the first ${LONG_SECTION} long), ` +
      `${leads} leads, page cache off, ${CONCURRENCY} connections, ${durationMs / 1000} s per URL without compression`,
  )
  const results = []
  if (only !== 'postgres') results.push(await benchOn('SQLite', products, leads, durationMs))
  if (only !== 'sqlite') {
    if (TEST_DATABASE_URL) await benchOn('PostgreSQL', products, leads, durationMs)
    else console.log('PostgreSQL: skipped (set TEST_DATABASE_URL)')
  }
  const sqlite = results[0]
  if (!sqlite) return
  const check = (value: number, floor: number) =>
    `${value.toFixed(value < 10 ? 3 : 0)} (floor ${floor}: ${value <= floor ? 'met' : 'NOT met'})`
  const cpu = (label: string) => Number(sqlite.rows.find((r) => Object.values(r)[0] === label)?.['CPU ms/req'])
  console.log(`Issue 22's floors (SQLite, ${sqlite.products} products):`)
  console.log(`  start-up ms:                ${check(sqlite.startup.ms, FLOORS.startupMs)}`)
  console.log(`  RSS MiB after start:        ${check(sqlite.startup.rss, FLOORS.rssMiB)}`)
  for (const label of ['section page 1', 'section page 50', 'product page']) {
    console.log(`  ${`${label} CPU ms/req:`.padEnd(28)}${check(cpu(label), FLOORS.pageCpuMs)}`)
  }
  console.log(`  home page KiB:              ${check(sqlite.homeKiB, FLOORS.homeKiB)}`)
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  ensureBuild()
  pinLoadGenerator(0)
  await benchCatalogue(Number(process.argv[2] ?? 3) * 1000)
}
