// `npm run bench:render [seconds] [path…]`: what a page costs the server against the bare baseline
// of issue #34 (the same page's components rendered with React's renderToString from the same
// data in a bare Fastify route, test/bench/bare-server.tsx), in one run: server CPU time per
// request of Vitrina with the page cache off (PAGE_CACHE_MB=0) and on, and of the bare route, each
// server pinned to the same core and loaded the same way (load.ts: warm-up until the CPU time per
// request settles, then a fixed duration). A fourth server, the bare one reading each page from the
// database as the site does, shows what a page costs without Vike. `npm run bench` runs it too, on
// its own catalogue.
import fs from 'node:fs'
import path from 'node:path'
import { spawn } from 'node:child_process'
import { pathToFileURL } from 'node:url'
import esbuild from 'esbuild'
import { Pool } from 'undici'
import { ROOT_DIR, readConfig } from '../../server/config/config'
import { openDatabase } from '../../server/data/db'
import { ContentService } from '../../server/site/content-service'
import { SECTION_QUERY_NAMES } from '../../src/site/section-query'
import { ADMIN_TOKEN } from '../api/helpers'
import { tempDir } from '../helpers/build-test-app'
import { ensureBuild, freePort, hasTaskset, startProdServer, type ProdServer } from '../helpers/prod-server'
import type { BareData } from './bare-server'
import { seedBenchSite } from './fixture'
import { pinLoadGenerator, runLoad, type LoadResult } from './load'

export interface RenderBenchOptions {
  /** Seconds of measured load per server, URL and encoding (after the warm-up) */
  readonly durationMs?: number
  readonly concurrency?: number
  /** The core every measured server is pinned to (the load generator should be elsewhere) */
  readonly cpu?: number
  /** Pages to measure: paths the catalogue answers with 200 */
  readonly paths?: readonly string[]
}

export interface RenderBenchRow {
  readonly path: string
  readonly uncached: number
  readonly cached: number
  readonly bare: number
}

const BARE_BUNDLE = path.join(ROOT_DIR, 'dist/bench/bare-server.mjs')
const BROWSER = { 'accept-encoding': 'br, gzip' }

/**
 * Measures the pages of the site in `siteDir` (a database the production server has seeded):
 * Vitrina uncached, cached, and the bare baseline; prints a table with the ratios and returns the
 * plain (no Accept-Encoding) CPU ms per request, the unit of issue #34's table.
 */
export async function benchRender(siteDir: string, options: RenderBenchOptions = {}): Promise<RenderBenchRow[]> {
  const { durationMs = 5000, concurrency = 10, cpu = 1, paths = ['/'] } = options
  await bundleBareServer()
  const env = { LOG_LEVEL: 'error', ADMIN_TOKEN }
  const uncached = await startProdServer({ ...env, PAGE_CACHE_MB: '0' }, siteDir, { cpu })
  const cached = await startProdServer(env, siteDir, { cpu })
  const dataFile = path.join(siteDir, 'bare-data.json')
  fs.writeFileSync(dataFile, JSON.stringify(await bareData(siteDir, uncached, paths)))
  const bare = await startBareServer(dataFile, cpu)
  const bareLive = await startBareServer(dataFile, cpu, siteDir)
  const rows: RenderBenchRow[] = []
  const table: Record<string, string | number>[] = []
  try {
    for (const urlPath of paths) {
      const load = async (server: { url: string; pid: number }, headers: Record<string, string>) => {
        const pool = new Pool(server.url, { connections: concurrency })
        try {
          return await runLoad(pool, server.pid, { method: 'GET', path: urlPath }, headers, durationMs, concurrency)
        } finally {
          await pool.close()
        }
      }
      const site = (server: ProdServer) => ({ url: server.url, pid: server.child.pid! })
      const bareRun = await load(bare, {})
      const runs: [string, LoadResult, LoadResult | null][] = [
        ['bare: Fastify + renderToString', bareRun, null],
        ['bare + live reads (no Vike)', await load(bareLive, {}), null],
        ['uncached (PAGE_CACHE_MB=0)', await load(site(uncached), {}), await load(site(uncached), BROWSER)],
        ['cached', await load(site(cached), {}), await load(site(cached), BROWSER)],
      ]
      const base = bareRun.cpuMsPerRequest
      const sizes = [bare.url, bareLive.url, uncached.url, cached.url].map(async (url) =>
        (await fetch(url + urlPath)).text(),
      )
      const kib = (await Promise.all(sizes)).map((html) => (Buffer.byteLength(html) / 1024).toFixed(1))
      for (const [i, [server, plain, br]] of runs.entries()) {
        table.push({
          page: urlPath,
          server,
          'HTML KiB': kib[i],
          'req/s plain': Math.round(plain.perSecond),
          'CPU ms/req plain': plain.cpuMsPerRequest.toFixed(3),
          '× bare': (plain.cpuMsPerRequest / base).toFixed(2),
          'CPU ms/req br': br ? br.cpuMsPerRequest.toFixed(3) : '-',
          'br × bare': br ? (br.cpuMsPerRequest / base).toFixed(2) : '-',
          'warm-up s': `${plain.warmUpSeconds.toFixed(0)}${br ? `+${br.warmUpSeconds.toFixed(0)}` : ''}`,
          statuses: plain.statuses,
        })
      }
      rows.push({
        path: urlPath,
        uncached: runs[2][1].cpuMsPerRequest,
        cached: runs[3][1].cpuMsPerRequest,
        bare: base,
      })
    }
  } finally {
    await Promise.all([uncached.stop(), cached.stop(), bare.stop(), bareLive.stop()])
  }
  console.log(
    `Server CPU per request against the bare baseline (issue #34: uncached ≤ 2.5× bare), ${concurrency} connections, ` +
      `${durationMs / 1000} s each; bare answers plain only (its ratio is to the plain figure):`,
  )
  console.table(table)
  for (const row of rows) {
    console.log(
      `  ${row.path}: uncached/bare ${(row.uncached / row.bare).toFixed(2)}, cached/bare ${(row.cached / row.bare).toFixed(2)} ` +
        `(bare ${row.bare.toFixed(3)} ms; floor 2.5×: ${row.uncached / row.bare <= 2.5 ? 'met' : 'NOT met'})`,
    )
  }
  return rows
}

/** The bare server's bundle: its page components as Vite would build them for the server, minus stylesheets. */
async function bundleBareServer(): Promise<void> {
  await esbuild.build({
    entryPoints: [path.join(ROOT_DIR, 'test/bench/bare-server.tsx')],
    outfile: BARE_BUNDLE,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    packages: 'external',
    jsx: 'automatic',
    loader: { '.css': 'empty', '.svg': 'dataurl' },
    define: {
      'import.meta.env': JSON.stringify({ DEV: false, PROD: true, SSR: true, BASE_URL: '/' }),
      'process.env.NODE_ENV': '"production"',
    },
    logLevel: 'warning',
  })
}

/** Each page's data and layout as the content service gives them, and the built asset names. */
async function bareData(siteDir: string, site: ProdServer, paths: readonly string[]): Promise<BareData> {
  const config = readConfig({
    DATABASE_URL: `file:${path.join(siteDir, 'site.db')}`,
    PUBLIC_URL: site.url,
    SEED_DEMO: 'false',
  })
  const db = await openDatabase(config.database)
  try {
    const content = new ContentService(db, {
      ttlSeconds: config.structureTtl,
      publicSettings: {
        publicUrl: config.publicUrl,
        mediaUrl: config.mediaUrl,
        metrikaId: config.metrikaId,
        metrikaTagUrl: config.metrikaTagUrl,
      },
    })
    const pages: BareData['pages'] = {}
    for (const urlPath of paths) {
      const resolved = await content.pageOf(urlPath, '')
      if (resolved.kind !== 'page') throw new Error(`${urlPath} is not a page: ${resolved.kind}`)
      pages[urlPath] = { data: resolved.page, site: resolved.site }
    }
    const html = await (await fetch(`${site.url}/`)).text()
    return {
      publicSettings: content.publicSettings,
      pageQuery: SECTION_QUERY_NAMES,
      stylesheet: /<link rel="stylesheet"[^>]* href="([^"]+)"/.exec(html)?.[1] ?? '/style.css',
      script: /<script src="([^"]+)" type="module"/.exec(html)?.[1] ?? '/client.js',
      pages,
    }
  } finally {
    await db.destroy()
  }
}

/** The bare server; with `liveDir`, reading each page from that site's database. */
async function startBareServer(dataFile: string, cpu: number, liveDir?: string) {
  const port = await freePort()
  const node = [process.execPath, BARE_BUNDLE, String(port), dataFile, ...(liveDir ? ['live'] : [])]
  const [command, ...args] = hasTaskset() ? ['taskset', '-c', String(cpu), ...node] : node
  const child = spawn(command, args, {
    cwd: ROOT_DIR,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      ...(liveDir ? { DATABASE_URL: `file:${path.join(liveDir, 'site.db')}`, SEED_DEMO: 'false' } : {}),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      if (String(chunk).includes('listening')) resolve()
    })
    child.once('exit', (code) => reject(new Error(`the bare server exited with ${code}`)))
  })
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve()
        child.once('exit', () => resolve())
        child.kill('SIGTERM')
      }),
  }
}

async function main(): Promise<void> {
  const [seconds = '5', ...paths] = process.argv.slice(2)
  ensureBuild()
  const pinned = pinLoadGenerator(0)
  console.log(`Render bench: production build${pinned ? ', servers on CPU 1, load generator on CPU 0' : ''}`)
  const siteDir = tempDir('vitrina-render-bench-')
  try {
    console.log(`Catalogue: home page with ${await seedBenchSite(siteDir, ADMIN_TOKEN)}`)
    await benchRender(siteDir, {
      durationMs: Number(seconds) * 1000,
      paths: paths.length > 0 ? paths : ['/', '/structure/product'],
    })
  } finally {
    fs.rmSync(siteDir, { recursive: true, force: true })
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main()
