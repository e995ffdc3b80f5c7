// The catalogue in and out at 10,000 products (issue 23), on SQLite and, with TEST_DATABASE_URL,
// PostgreSQL: a price list of 10,000 new products, then 10,000 new prices, then the same file again,
// each previewed and applied in this process as the back office's API does, while a second server
// process on the same database (a second PM2 worker) sends itself a lead every 20 ms (issue #35); then
// /feeds/yandex.xml over those products, built anew three times (the content version bumped in
// between), then kept. Wall time, the heap's growth, the longest write transaction and event-loop
// block of the apply, the leads' latency on the other process, what one request for the kept feed
// costs in each encoding (br, gzip, identity: CPU per request, and what the first request spent
// making that representation; issue #36) and the floors (import ≤ 10 s, feed ≤ 1 s, a transaction
// or a block ≤ 50 ms) are printed.
// Part of `npm run bench`; alone: `npm run bench:feeds`.
import os from 'node:os'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { pathToFileURL } from 'node:url'
import zlib from 'node:zlib'
import type { ChunkStats } from '../../server/catalogue/import-claim'
import { applyPriceList, previewPriceList } from '../../server/catalogue/price-list/price-import'
import { bumpContentVersion } from '../../server/data/db'
import { PATHS } from '../../src/site/paths'
import type { TestApp } from '../helpers/build-test-app'
import { DIALECTS } from '../helpers/dialects'
import { spawnLeadWorker } from '../helpers/lead-worker'
import { ensureBuild } from '../helpers/prod-server'
import { ymlProblems } from '../helpers/yml-rules'
import { percentile } from './load'

export const BENCH_PRODUCTS = 10_000
/** Issue 23's floors: a 10,000-row import on SQLite (preview + apply), a 10,000-offer feed built anew */
const FLOORS = { importMs: 10_000, feedMs: 1000, stepMs: 50 }
const FEED_BUILDS = 3

/** A price list as Russian Excel saves it: `;`, decimal commas, a characteristic with its unit. */
export function benchPriceList(priceOf: (i: number) => number): Buffer {
  const lines = ['Артикул;Наименование;Цена;Старая цена;Наличие;Раздел;Бренд;Вес, кг']
  for (let i = 1; i <= BENCH_PRODUCTS; i++) {
    const price = priceOf(i)
    lines.push(
      `Б-${i};"Товар ""${i}"" для замера";${price},00;${price + 500};${i % 7 === 0 ? 'Под заказ' : 'В наличии'};Электроинструмент;Бренд ${i % 13};${(i % 50) / 10}`,
    )
  }
  return Buffer.from(`\uFEFF${lines.join('\r\n')}\r\n`)
}

/** Wall time, this process's CPU time (the part other engineers' load does not inflate much) and heap growth. */
async function timed<T>(run: () => Promise<T>): Promise<{ value: T; ms: number; cpuMs: number; heapMiB: string }> {
  globalThis.gc?.()
  const heap = process.memoryUsage().heapUsed
  const cpu = process.cpuUsage()
  const started = performance.now()
  const value = await run()
  const used = process.cpuUsage(cpu)
  return {
    value,
    ms: Math.round(performance.now() - started),
    cpuMs: Math.round((used.user + used.system) / 1000),
    heapMiB: ((process.memoryUsage().heapUsed - heap) / 1024 / 1024).toFixed(0),
  }
}

const verdict = (ms: number, floor: number) => (ms <= floor ? `ok (≤ ${floor} ms)` : `OVER ${floor} ms`)

/** Imports the bench catalogue into `t` and prints the table; leaves the 10,000 products in place. */
export async function benchPriceImport(t: TestApp, dialect: string): Promise<void> {
  const db = t.config.database
  const worker = await spawnLeadWorker(t.dir, {
    DATABASE_URL: db.kind === 'postgres' ? db.url : `file:${db.path}`,
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
  })
  const rows: Record<string, string | number>[] = []
  try {
    for (const [label, file] of [
      ['10,000 new products', benchPriceList((i) => 1000 + i)],
      ['10,000 new prices', benchPriceList((i) => 2000 + i)],
      ['the same file again', benchPriceList((i) => 2000 + i)],
    ] as const) {
      const preview = await timed(() => previewPriceList(t.app.db, file))
      const stats: ChunkStats = { chunks: 0, longestMs: 0 }
      const loop = monitorEventLoopDelay({ resolution: 5 })
      loop.enable()
      const applying = timed(() => applyPriceList(t.app.writeDoor, file, preview.value.confirm, stats))
      const leads = await worker.leadsUntil(applying)
      const apply = await applying
      loop.disable()
      const total = preview.ms + apply.ms
      const latencies = leads.map((lead) => lead.ms).sort((a, b) => a - b)
      const blockMs = Math.max(0, loop.max / 1e6 - 5)
      // What another process's write (a lead) may wait on: SQLite's one write lock, held for each
      // transaction; PostgreSQL locks only the rows written, so there only the event loop counts.
      const heldMs = db.kind === 'sqlite' ? Math.max(stats.longestMs, blockMs) : blockMs
      rows.push({
        file: label,
        KiB: (file.length / 1024).toFixed(0),
        'preview ms': preview.ms,
        'apply ms': apply.ms,
        'apply CPU ms': apply.cpuMs,
        'heap growth MiB': apply.heapMiB,
        updated: apply.value.updated,
        created: apply.value.created,
        unchanged: apply.value.unchanged,
        transactions: stats.chunks,
        'longest transaction ms': Math.round(stats.longestMs),
        'longest block ms': Math.round(blockMs),
        'leads (other process)': leads.length,
        'leads refused': leads.filter((lead) => lead.status !== 201).length,
        'lead p99 ms': latencies.length ? Math.round(percentile(latencies, 99)) : '',
        'lead max ms': latencies.length ? Math.round(latencies[latencies.length - 1]) : '',
        floor: `${verdict(total, FLOORS.importMs)}; steps ${heldMs <= FLOORS.stepMs ? 'ok' : 'OVER'} (≤ ${FLOORS.stepMs} ms)`,
      })
    }
  } finally {
    await worker.stop()
  }
  console.log(
    `A price list of ${BENCH_PRODUCTS} rows on ${dialect} (preview, then apply in short transactions; leads to a second process meanwhile):`,
  )
  console.table(rows)
}

/** /feeds/yandex.xml over the catalogue `t` holds: built anew (three times), then kept; its size and rules. */
export async function benchYandexFeed(t: TestApp, dialect: string): Promise<void> {
  const get = (headers: Record<string, string>) =>
    timed(() => t.app.inject({ url: PATHS.yandexFeed, headers: { 'accept-encoding': 'gzip', ...headers } }))
  const builds = []
  for (let i = 0; i < FEED_BUILDS; i++) {
    // A write anywhere makes the next request build the feed anew.
    await bumpContentVersion(t.app.db)
    builds.push(await get({}))
  }
  const built = builds[0]
  const kept = await get({})
  const plain = await get({ 'accept-encoding': 'identity' })
  const xml = zlib.gunzipSync(built.value.rawPayload).toString('utf8')
  const offers = xml.split('<offer ').length - 1
  const median = percentile(
    builds.map((b) => b.ms).sort((a, b) => a - b),
    50,
  )
  console.log(`${PATHS.yandexFeed} over that catalogue (${dialect}, in process):`)
  console.table([
    {
      offers,
      'build ms (each, uncached)': builds.map((b) => b.ms).join(' / '),
      'build ms (median)': median,
      'build CPU ms (each)': builds.map((b) => b.cpuMs).join(' / '),
      floor: verdict(median, FLOORS.feedMs),
      'kept ms (gzip)': kept.ms,
      'kept ms (plain)': plain.ms,
      MiB: (Buffer.byteLength(xml) / 1048576).toFixed(1),
      'gzip MiB': (built.value.rawPayload.length / 1048576).toFixed(2),
      'heap growth MiB': built.heapMiB,
      'broken YML rules': ymlProblems(xml, t.config.publicUrl).length,
    },
  ])
  await benchFeedRequests(t, dialect)
}

/** Requests per encoding of the kept feed (issue #36: br was gunzipped and brotli-compressed per request). */
const FEED_REQUESTS = 20

/** What one request for the kept feed costs in each encoding: CPU and wall time per request, bytes sent. */
async function benchFeedRequests(t: TestApp, dialect: string): Promise<void> {
  const rows: Record<string, string | number>[] = []
  for (const encoding of ['br', 'gzip', 'identity']) {
    const get = () => t.app.inject({ url: PATHS.yandexFeed, headers: { 'accept-encoding': encoding } })
    // The first request may make the representation; the ones measured after it find it kept.
    const first = await timed(get)
    const each: number[] = []
    const cpu = process.cpuUsage()
    for (let i = 0; i < FEED_REQUESTS; i++) {
      const started = performance.now()
      await get()
      each.push(performance.now() - started)
    }
    const used = process.cpuUsage(cpu)
    each.sort((a, b) => a - b)
    rows.push({
      'accept-encoding': encoding,
      'content-encoding': String(first.value.headers['content-encoding'] ?? 'identity'),
      etag: String(first.value.headers.etag),
      KiB: (first.value.rawPayload.length / 1024).toFixed(0),
      'first request CPU ms': first.cpuMs,
      'CPU ms per request': ((used.user + used.system) / 1000 / FEED_REQUESTS).toFixed(1),
      'ms p50': percentile(each, 50).toFixed(1),
      'ms max': each[each.length - 1].toFixed(1),
    })
  }
  console.log(`${PATHS.yandexFeed} kept, ${FEED_REQUESTS} requests per encoding (${dialect}, in process):`)
  console.table(rows)
}

/** The catalogue's price list in and feed out at 10,000 products, on a fresh site per database. */
export async function benchCatalogueIo(): Promise<void> {
  console.log(
    `Load before the catalogue-io bench: ${os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
  )
  // The production build: no Vite dev server starting (and optimising) beside the measurements.
  ensureBuild()
  for (const dialect of DIALECTS.filter((d) => d.available)) {
    const t = await dialect.build({ LOG_LEVEL: 'silent', YANDEX_FEED: 'true', NODE_ENV: 'production' })
    try {
      await benchPriceImport(t, dialect.name)
      await benchYandexFeed(t, dialect.name)
    } finally {
      await t.close()
    }
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await benchCatalogueIo()
