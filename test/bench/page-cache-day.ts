// A simulated day of a catalogue that changes (issue 34, docs/decisions/033-selective-invalidation.md):
// 10,000 products in 200 sections, visitors over 1,000 pages (the home page, the sections, product
// pages) by a Zipf law, and a 1C-sized price write (100 products, one door write) every 10 minutes of
// simulated time (600 requests at one a second). Run twice on the same catalogue: with the page
// cache emptied by every write (as before issue 34) and with a write dropping only the pages it
// changed, the same with the most-visited pages rendered again after each write (PAGE_WARM_PAGES, in
// the quiet minutes between two writes), and without writes (the most a cache of this load can hit). Prints the page cache's hit
// ratio and the latency (p50/p99, the production build in process, SQLite) of each.
// `npm run bench:page-cache` (`-- 12` for the number of writes, default 12: two simulated hours).
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { percentile } from './load'
import { buildApp, type App } from '../../server/app'
import { buildTestApp } from '../helpers/build-test-app'
import { generateCatalogue } from '../helpers/catalogue'
import { ensureBuild } from '../helpers/prod-server'

const PRODUCTS = 10_000
const SECTIONS = 200
const PAGES = 1000
const REQUESTS_PER_WRITE = 600
const PRODUCTS_PER_WRITE = 100

/** A fixed pseudo-random sequence: both runs see the same visitors and the same writes. */
function random(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0
    return state / 2 ** 32
  }
}

/** Rank 0..n-1 by a Zipf law (s = 1): rank k is asked 1/(k+1) as often as rank 0. */
function zipf(n: number, next: () => number): () => number {
  const weights = Array.from({ length: n }, (_, k) => 1 / (k + 1))
  const total = weights.reduce((a, b) => a + b, 0)
  const cumulative: number[] = []
  let sum = 0
  for (const w of weights) cumulative.push((sum += w / total))
  return () => {
    const x = next()
    let lo = 0
    let hi = n - 1
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (cumulative[mid] < x) lo = mid + 1
      else hi = mid
    }
    return lo
  }
}

/** Part of `npm run bench`: the simulated day with `writes` writes (two simulated hours by default). */
export async function benchPageCacheDay(writes = 12) {
  ensureBuild()
  const t = await buildTestApp({
    LOG_LEVEL: 'silent',
    PAGE_CACHE_MB: '512',
    NODE_ENV: 'production',
    PAGE_WARM_PAGES: '0',
  })
  let warming: App | null = null
  try {
    const catalogue = await generateCatalogue(t.app.db, { sections: SECTIONS, products: PRODUCTS, featuredEvery: 500 })
    t.app.content.invalidate()
    const products = await t.app.db
      .selectFrom('structure')
      .select(['id', 'urlFull'])
      .where('typeId', '=', 'product')
      .where('urlFull', 'like', '/structure/gen-%')
      .execute()
    const pick = random(34)
    const shuffled = [...products].sort(() => pick() - 0.5)
    // The pages visitors ask for, most asked first: the home page, the sections, then products.
    const pages = ['/', ...catalogue.sections.map((s) => s.urlFull), ...shuffled.map((p) => p.urlFull)].slice(0, PAGES)
    // Rendered once first, so the first of each run does not pay for compiling the page's modules.
    for (const url of pages.slice(0, 20)) await t.app.inject({ url })

    async function run(
      label: string,
      writing: 'drop everything' | 'drop what changed' | 'none',
      app: Pick<App, 'inject' | 'writeDoor' | 'content' | 'pages'> = t.app,
    ) {
      app.content.invalidate()
      const visitor = zipf(pages.length, random(1))
      const writer = random(2)
      let hits = 0
      const times: number[] = []
      for (let w = 0; w < writes; w++) {
        for (let i = 0; i < REQUESTS_PER_WRITE; i++) {
          const started = performance.now()
          const res = await app.inject({ url: pages[visitor()] })
          times.push(performance.now() - started)
          if (res.headers['x-vitrina-cache'] === 'hit') hits++
        }
        const changed = Array.from(
          { length: PRODUCTS_PER_WRITE },
          () => products[Math.floor(writer() * products.length)].id,
        )
        if (writing === 'none') continue
        await app.writeDoor.write(async (unit) => {
          await unit.touch(changed)
          for (const id of changed) {
            await unit.trx
              .updateTable('product')
              .set({ price: 100 + Math.floor(writer() * 10_000) })
              .where('structureId', '=', id)
              .execute()
          }
        })
        // Before issue 34: every write emptied the whole page cache.
        if (writing === 'drop everything') app.content.invalidate()
        // The ten minutes until the next write: time for the warming, when the app does it.
        await app.pages.warmed()
      }
      times.sort((a, b) => a - b)
      const ratio = ((100 * hits) / times.length).toFixed(1)
      console.log(
        `${label.padEnd(34)} hit ratio ${ratio.padStart(5)} %   p50 ${percentile(times, 50).toFixed(2)} ms   p99 ${percentile(times, 99).toFixed(2)} ms`,
      )
    }

    console.log(
      `A simulated day: ${PRODUCTS} products, ${pages.length} pages by Zipf, ${writes} writes of ${PRODUCTS_PER_WRITE} prices, ` +
        `${REQUESTS_PER_WRITE} requests between writes (production build, in process)`,
    )
    await run('every write empties the cache', 'drop everything')
    await run('a write drops what it changed', 'drop what changed')
    // A second process on the same database that warms its most-visited pages after a write.
    warming = await buildApp({ ...t.config, pageWarmPages: 100 }, { pageWarmQuietMs: 10 })
    await warming.ready()
    for (const url of pages.slice(0, 20)) await warming.inject({ url })
    await run('… and warms the most-visited 100', 'drop what changed', warming)
    await run('no writes at all (the ceiling)', 'none')
  } finally {
    await warming?.close()
    await t.close()
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  await benchPageCacheDay(Number(process.argv[2] ?? 12))
}
