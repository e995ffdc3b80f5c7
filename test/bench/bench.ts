// `npm run bench`: the production build on loopback, fixed-duration load per URL, printed as a
// table. Numbers only: it never fails a build. Bounded: DURATION_S seconds per URL, loopback only.
import { Pool } from 'undici'
import { ensureBuild, startProdServer } from '../helpers/prod-server'

const DURATION_MS = Number(process.argv[2] ?? 5) * 1000
const CONCURRENCY = 10
const URLS = [
  '/',
  '/structure/',
  '/structure/product',
  '/structure/index.pageContext.json',
  '/no-such-page',
  '/sitemap.xml',
]

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN
}

ensureBuild()
const server = await startProdServer({ LOG_LEVEL: 'error' })
const pool = new Pool(server.url, { connections: CONCURRENCY })
const rows: Record<string, string | number>[] = []
try {
  for (const url of URLS) {
    for (let i = 0; i < 20; i++) await (await pool.request({ path: url, method: 'GET' })).body.dump() // warm up
    const latencies: number[] = []
    let errors = 0
    let bytes = 0
    const end = Date.now() + DURATION_MS
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (Date.now() < end) {
          const started = performance.now()
          try {
            const res = await pool.request({ path: url, method: 'GET' })
            bytes += (await res.body.arrayBuffer()).byteLength
            if (res.statusCode >= 500) errors++
          } catch {
            errors++
          }
          latencies.push(performance.now() - started)
        }
      }),
    )
    latencies.sort((a, b) => a - b)
    rows.push({
      url,
      'req/s': Math.round(latencies.length / (DURATION_MS / 1000)),
      'p50 ms': percentile(latencies, 50).toFixed(1),
      'p99 ms': percentile(latencies, 99).toFixed(1),
      'max ms': latencies.at(-1)!.toFixed(1),
      'KB/resp': (bytes / latencies.length / 1024).toFixed(1),
      errors,
    })
  }
} finally {
  await pool.close()
  await server.stop()
  server.cleanup()
}
console.log(`Vitrina bench: production build, 1 process, concurrency ${CONCURRENCY}, ${DURATION_MS / 1000} s per URL`)
console.table(rows)
