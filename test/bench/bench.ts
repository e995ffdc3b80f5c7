// `npm run bench`: the production build on loopback, fixed-duration load per URL, printed as
// tables. Numbers only: it never fails a build. Bounded: DURATION_S seconds per URL and encoding
// (default 5), each after a warm-up until the server's CPU time per request settles (3–20 s, see
// load.ts), the same pages against a bare React render (render.ts); about fifteen minutes in all,
// loopback only. The server is
// pinned to CPU 1 and this load generator to CPU 0 where taskset exists: CPU ms per request (the server
// process's own CPU time over the requests it served) is then comparable between runs; req/s and
// latencies also depend on whatever else the machine is doing.
import fs from 'node:fs'
import path from 'node:path'
import zlib from 'node:zlib'
import sharp from 'sharp'
import { Pool } from 'undici'
import { ROOT_DIR } from '../../server/config/config'
import { stringifyQuery } from '../../src/api/query-string'
import { ADMIN_TOKEN, STRUCTURE_LOAD } from '../api/helpers'
import { launchBrowser, waitForVike } from '../helpers/browser'
import { tempDir } from '../helpers/build-test-app'
import { ensureBuild, startProdServer } from '../helpers/prod-server'
import { startHttpReceiver, startSmtpReceiver } from '../helpers/receivers'
import { benchBackOffice } from './back-office'
import { seedBenchSite } from './fixture'
import { benchCatalogue } from './catalogue'
import { benchCatalogueIo } from './catalogue-io'
import { benchMediaStore } from './media'
import { benchSearch } from './search'
import { benchPageCacheDay } from './page-cache-day'
import { benchHtmlSize } from './html-size'
import { benchRender } from './render'
import { answerSizes, cpuMs, percentile, pinLoadGenerator, rssMiB, runLoad, type BenchRequest } from './load'

const DURATION_MS = Number(process.argv[2] ?? 5) * 1000
const CONCURRENCY = 10
const SERVER_CPU = 1
const BROWSER = { 'accept-encoding': 'br, gzip' }
/** Issue #9's floors for the home page on this catalogue; the HTML's is issue #34's (html-size.ts). */
const FLOORS = { uncachedCpuMs: 1.5, cachedCpuMs: 0.15, htmlGzipKiB: 4 }

type Mode = 'cached' | 'uncached'

/** What is measured; in the uncached run the page cache is off and the structure read has no ttl. */
function targets(mode: Mode): [label: string, request: BenchRequest][] {
  const ttl = mode === 'cached' ? 120 : undefined
  return [
    ['home /', { method: 'GET', path: '/' }],
    ['section /structure/', { method: 'GET', path: '/structure/' }],
    ['product /structure/product', { method: 'GET', path: '/structure/product' }],
    ['404 /no-such-page', { method: 'GET', path: '/no-such-page' }],
    // The issue's yardstick for a cached page: a static file through @fastify/static.
    [`static file ${staticAsset()}`, { method: 'GET', path: staticAsset() }],
    [
      `many/structure${ttl ? ' ttl=120' : ''}`,
      { method: 'GET', path: `/api/many/structure?${stringifyQuery({ query: STRUCTURE_LOAD, ttl })}` },
    ],
    [
      'lead POST /api/feedback',
      {
        method: 'POST',
        path: '/api/feedback',
        headers: { 'content-type': 'application/json' },
        body: (i) =>
          JSON.stringify({
            username: `Покупатель ${i}`,
            phone: '+7 999 123-45-67',
            email: `b${i}@example.ru`,
            consent: true,
          }),
      },
    ],
  ]
}

ensureBuild()
const pinned = pinLoadGenerator(0)
console.log(
  `Vitrina bench: production build, 1 process${pinned ? ` pinned to CPU ${SERVER_CPU} (load generator on CPU 0)` : ' (not pinned: no taskset or one CPU)'}, ` +
    `${CONCURRENCY} connections, ${DURATION_MS / 1000} s per URL with Accept-Encoding: br, gzip and ${DURATION_MS / 2000} s without`,
)
const siteDir = tempDir('vitrina-bench-')
try {
  console.log(`Catalogue: home page with ${await seedBenchSite(siteDir, ADMIN_TOKEN)}`)
  const startups: Record<string, string | number>[] = []
  const homeRows: Record<Mode, Record<string, string | number>> = {} as never
  let staticRow: Record<string, string | number> = {}
  for (const mode of ['cached', 'uncached'] as const) {
    const { rows, startup } = await benchSite(mode)
    startups.push(startup)
    homeRows[mode] = rows[0]
    if (mode === 'cached') staticRow = rows.find((row) => String(row.cached).startsWith('static file')) ?? {}
  }
  console.log('Start-up (spawn → listening) and memory after the load above:')
  console.table(startups)
  printFloors(homeRows, staticRow)
  // Issue #34: the same pages against a bare Fastify + renderToString of their components.
  await benchRender(siteDir, {
    durationMs: DURATION_MS,
    concurrency: CONCURRENCY,
    cpu: SERVER_CPU,
    paths: ['/', '/structure/product'],
  })
} finally {
  fs.rmSync(siteDir, { recursive: true, force: true })
}
await benchHtmlSize()
await benchJavaScript()
await benchLeadIntake()
await benchImageUpload()
await benchMediaStore(DURATION_MS, CONCURRENCY, SERVER_CPU)
await benchCatalogue(DURATION_MS)
await benchSearch()
await benchCatalogueIo()
await benchBackOffice(SERVER_CPU)
await benchPageCacheDay()

/** One server: the page cache on (default) or off (PAGE_CACHE_MB=0); the same database both times. */
async function benchSite(mode: Mode) {
  const server = await startProdServer(
    { LOG_LEVEL: 'error', ADMIN_TOKEN, LEAD_RATE_LIMIT: '0', ...(mode === 'uncached' ? { PAGE_CACHE_MB: '0' } : {}) },
    siteDir,
    { cpu: SERVER_CPU },
  )
  const pid = server.child.pid!
  const pool = new Pool(server.url, { connections: CONCURRENCY })
  const rows: Record<string, string | number>[] = []
  try {
    for (const [label, request] of targets(mode)) {
      const browser = await runLoad(pool, pid, request, BROWSER, DURATION_MS, CONCURRENCY)
      const plain = await runLoad(pool, pid, request, {}, DURATION_MS / 2, CONCURRENCY)
      const sizes = await answerSizes(pool, request)
      rows.push({
        [mode]: label,
        'req/s': Math.round(browser.perSecond),
        'p50 ms': browser.p50.toFixed(2),
        'p99 ms': browser.p99.toFixed(2),
        'CPU ms/req br': browser.cpuMsPerRequest.toFixed(3),
        'CPU ms/req plain': plain.cpuMsPerRequest.toFixed(3),
        'KiB raw': (sizes.raw / 1024).toFixed(1),
        'KiB gzip': (sizes.gzip / 1024).toFixed(1),
        'KiB br': (sizes.br / 1024).toFixed(1),
        'warm-up s': `${browser.warmUpSeconds.toFixed(0)}+${plain.warmUpSeconds.toFixed(0)}`,
        statuses: browser.statuses,
        errors: browser.errors + plain.errors,
      })
    }
    const startup = {
      server: mode === 'cached' ? 'page cache on' : 'page cache off (PAGE_CACHE_MB=0)',
      'start-up ms': Math.round(server.startupMs() ?? NaN),
      'RSS MiB after load': Math.round(rssMiB(pid)),
    }
    console.log(
      mode === 'cached'
        ? 'From the page cache (many/structure from the ttl read cache):'
        : 'Page cache off (PAGE_CACHE_MB=0), every page rendered; many/structure without ttl (a query each time):',
    )
    console.table(rows)
    return { rows, startup }
  } finally {
    await pool.close()
    await server.stop()
  }
}

/** The built stylesheet: a real file of dist/client, served as the build's precompressed copy. */
function staticAsset(): string {
  const name = fs.readdirSync(path.join(ROOT_DIR, 'dist/client/assets/static')).find((file) => file.endsWith('.css'))
  return `/assets/static/${name}`
}

function printFloors(home: Record<Mode, Record<string, string | number>>, staticFile: Record<string, string | number>) {
  const check = (value: number, floor: number) => `${value} (floor ${floor}: ${value <= floor ? 'met' : 'NOT met'})`
  console.log("Issue #9's floors for the home page:")
  // The issue's side-by-side table matches answers without compression: its "Vitrina today" (2.25 ms)
  // is this bench's first plain figure (2.31), not its brotli one (3.28). Both are printed; with
  // brotli a live answer also pays for compressing it.
  console.log(
    `  uncached CPU ms/req (plain): ${check(Number(home.uncached['CPU ms/req plain']), FLOORS.uncachedCpuMs)}`,
  )
  console.log(`  uncached CPU ms/req (br):    ${check(Number(home.uncached['CPU ms/req br']), FLOORS.uncachedCpuMs)}`)
  console.log(`  cached CPU ms/req (br):      ${check(Number(home.cached['CPU ms/req br']), FLOORS.cachedCpuMs)}`)
  console.log(`  HTML KiB gzip (no counter):  ${check(Number(home.cached['KiB gzip']), FLOORS.htmlGzipKiB)}`)
  const cached = Number(home.cached['CPU ms/req br'])
  const file = Number(staticFile['CPU ms/req br'])
  const within = (100 * (cached - file)) / file
  console.log(
    `  cached home vs a static file: ${cached} vs ${file} CPU ms/req (${within >= 0 ? '+' : ''}${within.toFixed(0)} %; ` +
      `floor +40 %: ${within <= 40 ? 'met' : 'NOT met'})`,
  )
}

/**
 * The lead POST's 201, with no delivery channel and with all three on while Telegram and the
 * webhook answer only after 2 s: delivery must not slow the intake. Sequential posts, one
 * connection, as visitors send them (a lead at a time, not a flood).
 */
async function benchLeadIntake(): Promise<void> {
  const LEADS = 200
  const SLOW_MS = 2000
  const smtp = await startSmtpReceiver()
  const slow = await startHttpReceiver()
  slow.fallback = { status: 200, body: { ok: true, result: {} }, delayMs: SLOW_MS }
  const secret = `whsec_${Buffer.from('bench secret of at least 24 bytes').toString('base64')}`
  const channels = {
    SMTP_URL: smtp.url,
    LEAD_EMAIL_TO: 'owner@shop.example.ru',
    LEAD_EMAIL_FROM: 'site@shop.example.ru',
    TELEGRAM_BOT_TOKEN: '123456:AAbbCCddEEffGGhhIIjjKKllMMnnBench',
    TELEGRAM_CHAT_ID: '1',
    TELEGRAM_API_URL: slow.url,
    LEAD_WEBHOOK_URL: `${slow.url}/hook`,
    LEAD_WEBHOOK_SECRET: secret,
  }
  const leadRows: Record<string, string | number>[] = []
  try {
    for (const [label, env] of [
      ['no channels', {}],
      [`3 channels, Telegram and webhook ${SLOW_MS / 1000} s slow`, channels],
    ] as const) {
      const site = await startProdServer({ LOG_LEVEL: 'error', LEAD_RATE_LIMIT: '0', ...env })
      const client = new Pool(site.url, { connections: 1 })
      try {
        const latencies: number[] = []
        const statuses = new Map<number, number>()
        for (let i = 0; i < LEADS; i++) {
          const started = performance.now()
          const res = await client.request({
            path: '/api/feedback',
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({
              username: `Покупатель ${i}`,
              phone: '+7 999 123-45-67',
              email: `b${i}@example.ru`,
              consent: true,
            }),
          })
          await res.body.dump()
          latencies.push(performance.now() - started)
          statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1)
        }
        latencies.sort((a, b) => a - b)
        // Delivery did happen meanwhile: the e-mails of the slow-channel run arrive (bounded wait).
        const until = Date.now() + 30_000
        while ('SMTP_URL' in env && smtp.mails.length < LEADS && Date.now() < until) {
          await new Promise((resolve) => setTimeout(resolve, 200))
        }
        leadRows.push({
          'POST /api/feedback': label,
          leads: LEADS,
          'p50 ms': percentile(latencies, 50).toFixed(1),
          'p99 ms': percentile(latencies, 99).toFixed(1),
          'max ms': latencies.at(-1)!.toFixed(1),
          statuses: [...statuses].map(([status, count]) => `${status}×${count}`).join(' '),
          'e-mails received': 'SMTP_URL' in env ? smtp.mails.length : '-',
        })
      } finally {
        await client.close()
        await site.stop()
        site.cleanup()
      }
    }
  } finally {
    await smtp.close()
    await slow.close()
  }
  console.log(`Lead intake: ${LEADS} leads one after another, 1 connection`)
  console.table(leadRows)
}

/**
 * The JavaScript each page makes a phone download before any interaction, as transferred
 * (compressed) in Chromium, and what opening the lead dialog adds.
 */
async function benchJavaScript(): Promise<void> {
  const server = await startProdServer({ LOG_LEVEL: 'error' })
  const browser = await launchBrowser()
  const rows: Record<string, string | number>[] = []
  try {
    for (const path of ['/', '/structure/', '/structure/product', '/no-such-page']) {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'ru-RU' })
      const page = await context.newPage()
      const scripts = new Map<string, number>()
      page.on('requestfinished', (request) => {
        if (request.resourceType() !== 'script') return
        void request.sizes().then((sizes) => scripts.set(request.url(), sizes.responseBodySize))
      })
      await page.goto(server.url + path)
      await waitForVike(page, path)
      await page.waitForLoadState('networkidle')
      const initial = [...scripts.values()].reduce((sum, n) => sum + n, 0)
      const before = new Set(scripts.keys())
      await page.locator('header [data-lead-button]').first().click()
      await page.getByRole('dialog').getByLabel('Ваше имя').waitFor()
      await page.waitForLoadState('networkidle')
      const added = [...scripts].filter(([url]) => !before.has(url)).reduce((sum, [, n]) => sum + n, 0)
      // The same files gzipped (level 9), the unit of the budget in issue #9; brotli is what goes out.
      const gzipped = (urls: Iterable<string>) => [...urls].reduce((sum, url) => sum + gzipSize(url), 0)
      rows.push({
        page: path,
        'scripts before interaction': before.size,
        'JS KiB (as sent)': (initial / 1024).toFixed(1),
        'JS KiB gzip': (gzipped(before) / 1024).toFixed(1),
        'lead dialog adds KiB': (added / 1024).toFixed(1),
        'dialog adds KiB gzip': (gzipped([...scripts.keys()].filter((url) => !before.has(url))) / 1024).toFixed(1),
      })
      await context.close()
    }
  } finally {
    await browser.close()
    await server.stop()
    server.cleanup()
  }
  console.log('JavaScript a phone downloads (Chromium, 390 px, compressed as sent, and gzipped):')
  console.table(rows)
}

/** A photo-like JPEG: colour gradients under grain, which is what makes encoders work. */
async function photo(width: number, height: number): Promise<Buffer> {
  const pixels = await sharp({
    create: { width, height, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } },
  })
    .blur(0.6)
    .raw()
    .toBuffer()
  for (let i = 0; i < pixels.length; i += 3) {
    const p = i / 3
    pixels[i] = (pixels[i] + (p % width) / 30) & 255
    pixels[i + 1] = (pixels[i + 1] + Math.floor(p / width) / 20) & 255
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 75 })
    .toBuffer()
}

/**
 * A product photo through the write API: the time to its 201 and the server's CPU time for it,
 * which include making its ten WebP/AVIF variants (decision 015), and what a phone then downloads
 * instead of the original. The CPU time is the number to compare: the wall time grows with
 * whatever else the machine is doing.
 */
async function benchImageUpload(): Promise<void> {
  const token = 'bench-admin-token-0123456789abcdef'
  const server = await startProdServer({ LOG_LEVEL: 'error', ADMIN_TOKEN: token })
  const rows: Record<string, string | number>[] = []
  try {
    const query = encodeURIComponent(JSON.stringify({ where: { urlFull: '/structure/power-tools/' } }))
    const parentId = (await (await fetch(`${server.url}/api/structure?query=${query}`)).json()).data.id
    let n = 0
    for (const [width, height] of [
      [6000, 4000],
      [2000, 1333],
    ]) {
      for (let round = 0; round < 2; round++) {
        const bytes = await photo(width, height) // new grain each time: never the stored copy of the last
        const form = new FormData()
        form.append(
          'data',
          JSON.stringify({
            parentId,
            typeId: 'product',
            title: `Фото ${++n}`,
            urlFull: `/structure/power-tools/bench-${n}`,
          }),
        )
        form.append('product.image', new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' }), 'photo.jpg')
        const started = performance.now()
        const cpuBefore = cpuMs(server.child.pid!)
        const res = await fetch(`${server.url}/api/structure`, {
          method: 'POST',
          body: form,
          headers: { authorization: `Bearer ${token}` },
        })
        const ms = performance.now() - started
        const cpu = cpuMs(server.child.pid!) - cpuBefore
        const image = (await res.json()).data.product.image as string
        const stem = path.join(server.dir, 'media', image.replace(/\.jpg$/, ''))
        const kib = (file: string) => (fs.statSync(file).size / 1024).toFixed(0)
        rows.push({
          photo: `${width}×${height} JPEG`,
          'MB sent': (bytes.length / 1024 / 1024).toFixed(1),
          status: res.status,
          'ms to answer': Math.round(ms),
          'server CPU ms': Math.round(cpu),
          'original KiB': kib(path.join(server.dir, 'media', image)),
          '640 AVIF KiB': kib(`${stem}-640.avif`),
          '1280 AVIF KiB': kib(`${stem}-1280.avif`),
          '1280 WebP KiB': kib(`${stem}-1280.webp`),
        })
      }
    }
  } finally {
    await server.stop()
    server.cleanup()
  }
  console.log('A product photo uploaded (POST /api/structure, variants made before the answer):')
  console.table(rows)
}

/** Gzip (level 9) size of a built asset, by its URL. */
function gzipSize(url: string): number {
  return zlib.gzipSync(fs.readFileSync(path.join(ROOT_DIR, 'dist/client', new URL(url).pathname)), { level: 9 }).length
}
