// The catalogue at scale (issue 22, docs/decisions/031-sections-and-scale.md): a generated
// catalogue of 10,000 products in 200 sections (or BENCH_PRODUCTS, e.g. 100000, by hand), written
// straight into the database in batches, then the production build on it, on SQLite and on
// PostgreSQL (where TEST_DATABASE_URL names a server): start-up and RSS, the route map's reload,
// uncached section pages 1 and 50, an uncached product page, the home page's size and sitemap.xml.
// Part of `npm run bench`; alone: `npm run bench:catalogue` (`-- 2` for 2 s per URL).
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { sql } from 'kysely'
import { Pool } from 'undici'
import { fillMissingSearchIndex } from '../../server/catalogue/search/search-index'
import { readConfig } from '../../server/config/config'
import { RouteMapCache } from '../../server/content/route-map'
import { openDatabase } from '../../server/data/db'
import { tempDir } from '../helpers/build-test-app'
import { generateCatalogue } from '../helpers/catalogue'
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

/**
 * More URLs measured like the section and product pages (uncached, CPU ms/req, p50/p99): the
 * search's queries go here (`/poisk?q=…`: 1, 2 and 3 words and an артикул), one line each.
 */
export const CATALOGUE_TARGETS: [label: string, request: BenchRequest][] = []

interface Target {
  label: string
  request: BenchRequest
}

function targets(): Target[] {
  const get = (p: string): BenchRequest => ({ method: 'GET', path: p })
  return [
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
async function benchOn(dialect: 'SQLite' | 'PostgreSQL', products: number, durationMs: number) {
  const dir = tempDir('vitrina-bench-catalogue-')
  const schema = dialect === 'PostgreSQL' ? await createTestSchema() : null
  const env: Record<string, string> = { LOG_LEVEL: 'error', PAGE_CACHE_MB: '0', LEAD_RATE_LIMIT: '0' }
  if (schema) env.DATABASE_URL = schema.url
  try {
    // The schema and the demo shop by a server of its own, then the catalogue straight into the database.
    const seeding = await startProdServer(env, dir)
    await seeding.stop()
    const config = readConfig({ DATABASE_URL: schema?.url ?? `file:${path.join(dir, 'site.db')}` })
    const db = await openDatabase(config.database)
    const started = performance.now()
    const made = await generateCatalogue(db, { sections: SECTIONS, products, firstSection: LONG_SECTION })
    // Indexed for search as every write path does (the generator writes rows only): start-up then
    // measures a site's ordinary start, not the one-time index fill after an upgrade.
    await fillMissingSearchIndex(db)
    // PostgreSQL analyses a table soon after a bulk load (autovacuum); the bench does not wait for it.
    if (schema) await sql`analyze`.execute(db)
    const generateS = (performance.now() - started) / 1000
    const reload = await routeMapReload(db)
    await db.destroy()

    const server = await startProdServer(env, dir, { cpu: SERVER_CPU })
    const pid = server.child.pid!
    const startup = { ms: server.startupMs() ?? NaN, rss: rssMiB(pid) }
    const pool = new Pool(server.url, { connections: CONCURRENCY })
    const rows: Record<string, string | number>[] = []
    let homeKiB = NaN
    let sitemap = { ms: NaN, kib: NaN, urls: 0 }
    try {
      for (const { label, request } of targets()) {
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
          `its heap ~${reload.heapMiB.toFixed(1)} MiB; ` +
          `sitemap.xml ${sitemap.ms.toFixed(0)} ms, ${sitemap.kib.toFixed(0)} KiB, ${sitemap.urls} URLs`,
      )
      console.table(rows)
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

/** V8's collector, when node runs with --expose-gc (the bench scripts do) */
const gc = (globalThis as { gc?: () => void }).gc

/** The route map loaded anew five times in this process: the median time, and the heap it holds. */
async function routeMapReload(db: Awaited<ReturnType<typeof openDatabase>>) {
  const times: number[] = []
  const cpus: number[] = []
  const heaps: number[] = []
  for (let i = 0; i < 5; i++) {
    gc?.()
    const before = process.memoryUsage().heapUsed
    const started = performance.now()
    const cpu = process.cpuUsage()
    const map = await new RouteMapCache(db, 120).get()
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
  return { ms: percentile(times, 50), cpuMs: percentile(cpus, 50), heapMiB: heaps[0] }
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
  console.log(
    `Catalogue at scale: ${products} products in ${SECTIONS} sections (the first ${LONG_SECTION} long), ` +
      `page cache off, ${CONCURRENCY} connections, ${durationMs / 1000} s per URL without compression`,
  )
  const results = [await benchOn('SQLite', products, durationMs)]
  if (TEST_DATABASE_URL) results.push(await benchOn('PostgreSQL', products, durationMs))
  else console.log('PostgreSQL: skipped (set TEST_DATABASE_URL)')
  const sqlite = results[0]
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
