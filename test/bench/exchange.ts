// The 1C exchange at catalogue scale (issue 35): a generated 1C catalogue of BENCH_PRODUCTS products
// (10,000 by default) in 200 groups, a picture for every tenth, sent zipped through the whole
// protocol (checkauth, init, the archive in file_limit parts, import until success, complete) to the
// production build running as two PM2-style processes on one database; on SQLite and, with
// TEST_DATABASE_URL, PostgreSQL. Three exchanges: the first (everything new), the same again
// (nothing changed) and an offers-only one (new prices and stock for every product). During each,
// the home page is asked for on the process that imports and leads are sent to the other one; the
// bench prints the exchange's wall time, the home page's p50/p99 and the leads' p99, worst and
// failures, beside issue 35's floors (issue 43's at BENCH_PRODUCTS ≥ 100,000: a 60 MB import.xml), and
// the importing process's peak resident memory against what it held before, and the idle disk's own
// flush time before and after (disk-flush.ts); on PostgreSQL a bare commit's time beside each exchange
// (commit-probe.ts). `npm run bench:exchange`; BENCH_DB=sqlite or postgres runs one
// database only; BENCH_PROFILE=<folder> writes the CPU profiles of the importing process and of the one taking
// the leads there (importing/, leads/).
import fs from 'node:fs'
import sharp from 'sharp'
import { watchSite } from './site-watch'
import { describeDiskFlush, diskFlush } from './disk-flush'
import { describeCommits, probeCommits } from './commit-probe'
import {
  EXCHANGE_ENV,
  OneCClient,
  httpTransport,
  importXml,
  offersXml,
  zipOf,
  type Group,
  type Offer,
  type Product,
} from '../helpers/one-c'
import { createTestSchema, TEST_DATABASE_URL } from '../helpers/postgres'
import { ensureBuild, startProdServer, type ProdServer } from '../helpers/prod-server'
import { tempDir } from '../helpers/build-test-app'

const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 10_000)
/** BENCH_PHASES=1: the first exchange only */
const PHASES = Number(process.env.BENCH_PHASES ?? 3)
/** Issue 43's scale: about 110,000 products, a 60 MB import.xml */
const LARGE = PRODUCTS >= 100_000
const GROUPS_TOP = 20
const GROUPS_PER_TOP = 9
/** Issue 35's floors, ms */
const FLOORS = {
  sqlite: { first: LARGE ? 180_000 : 30_000 },
  postgres: { first: LARGE ? 360_000 : 60_000 },
  again: LARGE ? 180_000 : 10_000,
  offers: LARGE ? 180_000 : 10_000,
  homeP99: 100,
  // Issue 43: every lead on the other process within 100 ms, whatever the import
  leadMax: 100,
  // Issue 43: the importing process's resident memory grows by at most this much, MiB
  rssGrowthMiB: 200,
}

/** The resident memory of a process, MiB (Linux); null where /proc cannot tell. */
function rssMiB(pid: number | undefined): number | null {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8')
    const kb = /VmRSS:\s+(\d+)/.exec(status)?.[1]
    return kb ? Number(kb) / 1024 : null
  } catch {
    return null
  }
}

/**
 * Samples a process's resident memory every 100 ms until stopped; the peak, MiB. BENCH_RSS_TIMELINE
 * prints its resident memory every 5 s as well (seconds into the phase: MiB/anonymous MiB).
 */
function watchRss(pid: number | undefined) {
  let peak = rssMiB(pid) ?? 0
  const started = performance.now()
  const timeline: string[] = []
  let next = 0
  const timer = setInterval(() => {
    const now = rssMiB(pid) ?? 0
    peak = Math.max(peak, now)
    const at = (performance.now() - started) / 1000
    if (at >= next) {
      // Anonymous memory (the heap of V8 and of malloc) beside the file pages mapped in
      let anon = ''
      try {
        const kb = /Anonymous:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1]
        if (kb) anon = `/${(Number(kb) / 1024).toFixed(0)}`
      } catch {
        // not Linux
      }
      timeline.push(`${at.toFixed(0)}s:${now.toFixed(0)}${anon}`)
      next += 5
    }
  }, 100)
  return () => {
    clearInterval(timer)
    if (process.env.BENCH_RSS_TIMELINE) console.log(`  RSS timeline (MiB): ${timeline.join(' ')}`)
    return peak
  }
}

function groups(): Group[] {
  return Array.from({ length: GROUPS_TOP }, (_, t) => ({
    id: `g-${t}`,
    name: `Раздел ${t + 1}`,
    children: Array.from({ length: GROUPS_PER_TOP }, (_, c) => ({
      id: `g-${t}-${c}`,
      name: `Подраздел ${t + 1}.${c + 1}`,
    })),
  }))
}

function products(): Product[] {
  return Array.from({ length: PRODUCTS }, (_, i) => ({
    id: `prod-${i}`,
    name: `Товар ${i} для замера обмена`,
    article: `ОБ-${i}`,
    description: `Описание товара ${i}: характеристики, применение и комплектация.`,
    vendor: `Бренд ${i % 17}`,
    groups: [`g-${i % GROUPS_TOP}-${i % GROUPS_PER_TOP}`],
    pictures: i % 10 === 0 ? [`import_files/${String(i % 100).padStart(2, '0')}/p${i}.jpg`] : [],
    properties: { 'p-power': `${(i % 30) * 50} Вт`, 'p-color': `v-${i % 3}` },
  }))
}

function offers(priceOf: (i: number) => number, stock: (i: number) => number): Offer[] {
  return Array.from({ length: PRODUCTS }, (_, i) => ({
    id: `prod-${i}`,
    prices: { retail: priceOf(i) },
    quantity: stock(i),
  }))
}

async function pictures(): Promise<Record<string, Buffer>> {
  const out: Record<string, Buffer> = {}
  for (let i = 0; i < PRODUCTS; i += 10) {
    out[`import_files/${String(i % 100).padStart(2, '0')}/p${i}.jpg`] = await sharp({
      create: { width: 48, height: 48, channels: 3, background: { r: i % 256, g: (i >> 8) % 256, b: 128 } },
    })
      .jpeg()
      .toBuffer()
  }
  return out
}

/** The whole exchange's wall time, and the time and calls of each protocol mode within it. */
async function exchange(server: ProdServer, files: Record<string, Buffer>, archive: Buffer) {
  const modes = new Map<string, { ms: number; calls: number }>()
  const http = httpTransport(server.url)
  const client = new OneCClient(async (request) => {
    const start = performance.now()
    try {
      return await http(request)
    } finally {
      const mode = /mode=(\w+)/.exec(request.url)?.[1] ?? '?'
      const seen = modes.get(mode) ?? { ms: 0, calls: 0 }
      modes.set(mode, { ms: seen.ms + performance.now() - start, calls: seen.calls + 1 })
    }
  })
  const start = performance.now()
  const answers = await client.exchange(files, { archive })
  const ms = performance.now() - start
  const failed = answers.find((a) => a.lines[0] !== 'success')
  if (failed) throw new Error(`exchange failed: ${failed.body}`)
  const split = [...modes]
    .filter(([, m]) => m.ms >= 100)
    .map(([mode, m]) => `${mode} ${(m.ms / 1000).toFixed(1)} s/${m.calls}`)
    .join(', ')
  return { ms, split }
}

function withApplicationName(url: string, name: string): string {
  const named = new URL(url)
  named.searchParams.set('application_name', `vitrina-${name}`)
  return named.toString()
}

async function run(name: 'SQLite' | 'PostgreSQL', env: Record<string, string>, dir: string) {
  const common: Record<string, string> = {
    ...EXCHANGE_ENV,
    LEAD_RATE_LIMIT: '0',
    LEAD_MIN_FILL_SECONDS: '0',
    ADMIN_TOKEN: 'bench-admin-token-0123456789',
    ...env,
  }
  const profile = process.env.BENCH_PROFILE
  // BENCH_NODE_ARGS and BENCH_LEADS_NODE_ARGS: more flags for the importing process and for the one
  // taking leads (e.g. --trace-gc), their output then kept in BENCH_PROFILE (or the working folder)
  // as importing.log and leads.log.
  const extra = process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? []
  const leadsExtra = process.env.BENCH_LEADS_NODE_ARGS?.split(' ').filter(Boolean) ?? []
  const profiled = (name: string) => ({
    nodeArgs: [
      ...(profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}/${name}`] : []),
      ...(name === 'importing' ? extra : leadsExtra),
    ],
  })
  // The disk alone before and after: a slow lead while the idle disk flushes as slowly is the disk's.
  const diskBefore = await diskFlush(dir)
  // On PostgreSQL each process names its sessions (pg_stat_activity, the server's log with %a)
  const named = (process: string): Record<string, string> =>
    common.DATABASE_URL ? { DATABASE_URL: withApplicationName(common.DATABASE_URL, process) } : {}
  const a = await startProdServer({ ...common, ...named('importing') }, dir, profiled('importing'))
  const leadsStarted = Date.now()
  const b = await startProdServer({ ...common, SEED_DEMO: 'false', ...named('leads') }, dir, profiled('leads'))
  // Each process has served a page before the exchange, as a running site's have: a fresh process's
  // first rendering (its page modules loaded and compiled) is the start's, not the import's.
  for (const server of [a, b]) await (await fetch(`${server.url}/`)).arrayBuffer()
  try {
    console.log(
      `\n${name}: ${PRODUCTS} products in ${GROUPS_TOP * (GROUPS_PER_TOP + 1)} groups, ${PRODUCTS / 10} pictures`,
    )
    console.log(describeDiskFlush('before, the site not running', diskBefore))
    const catalogue = importXml(
      {
        groups: groups(),
        properties: [
          { id: 'p-power', name: 'Мощность' },
          { id: 'p-color', name: 'Цвет', values: { 'v-0': 'Красный', 'v-1': 'Зелёный', 'v-2': 'Синий' } },
        ],
        products: products(),
      },
      { onlyChanges: false },
    )
    const priceTypes = [{ id: 'retail', name: 'Розничная' }]
    const firstOffers = offersXml({
      priceTypes,
      offers: offers(
        (i) => 1000 + i,
        (i) => i % 5,
      ),
    })
    const images = await pictures()
    const phases: [string, Record<string, Buffer>, number][] = [
      [
        'first exchange',
        { ...images, 'import.xml': catalogue, 'offers.xml': firstOffers },
        name === 'SQLite' ? FLOORS.sqlite.first : FLOORS.postgres.first,
      ],
      ['the same again', { ...images, 'import.xml': catalogue, 'offers.xml': firstOffers }, FLOORS.again],
      [
        'offers only, every price new',
        {
          'offers.xml': offersXml({
            priceTypes,
            offers: offers(
              (i) => 1100 + i,
              (i) => (i + 1) % 5,
            ),
          }),
        },
        FLOORS.offers,
      ],
    ]
    const rssBefore = rssMiB(a.child.pid)
    for (const [label, files, floor] of phases.slice(0, PHASES)) {
      // Zipped before the watch: JSZip deflates on this process's main thread and held it for up to
      // a second at a time, which a lead in flight then counted as the site's wait (1C has its
      // archive made before it calls).
      const archive = await zipOf(files)
      const watching = await watchSite(a.url, ['/'], b.url)
      const rss = watchRss(a.child.pid)
      const probe = common.DATABASE_URL ? await probeCommits(common.DATABASE_URL) : null
      const { ms, split } = await exchange(a, files, archive)
      const seen = await watching.stop()
      const commits = await probe?.stop()
      const peak = rss()
      const ok = (v: number, f: number) => (v <= f ? 'ok' : 'OVER')
      console.log(
        `  ${label.padEnd(30)} ${(ms / 1000).toFixed(1).padStart(6)} s (floor ${floor / 1000} s, ${ok(ms, floor)}); ` +
          `home p50 ${seen.pageP50.toFixed(0)} ms p99 ${seen.pageP99.toFixed(0)} ms (${ok(seen.pageP99, FLOORS.homeP99)}); ` +
          `leads ${seen.leads}, p99 ${seen.leadP99.toFixed(0)} ms, worst ${seen.leadMax.toFixed(0)} ms (${ok(seen.leadMax, FLOORS.leadMax)}), failed ${seen.leadFailures}`,
      )
      const growth = rssBefore === null ? null : peak - rssBefore
      console.log(
        `  ${''.padEnd(30)} RSS of the importing process: ${rssBefore?.toFixed(0) ?? '?'} → peak ${peak.toFixed(0)} MiB` +
          (growth === null
            ? ''
            : ` (+${growth.toFixed(0)}, ${ok(growth, FLOORS.rssGrowthMiB)} ≤ ${FLOORS.rssGrowthMiB})`),
      )
      console.log(`  ${''.padEnd(30)} calls: ${split}; the archive ${(archive.length / 1048576).toFixed(1)} MiB`)
      if (commits) console.log(`  ${''.padEnd(30)} ${describeCommits(commits)}`)
      if (seen.slowPages.length > 0) {
        const slow = seen.slowPages.map(
          (p) =>
            `${p.ms.toFixed(0)} ms${p.miss ? ', rendered' : ''} (request ${p.nth}, ${new Date(p.at).toISOString().slice(11, 23)})`,
        )
        console.log(`  ${''.padEnd(30)} pages over 100 ms: ${slow.slice(0, 12).join(', ')}`)
      }
      if (seen.slowLeads.length > 0) {
        const slow = seen.slowLeads.map(
          (l) =>
            `${l.ms.toFixed(0)} ms at ${((l.at - leadsStarted) / 1000).toFixed(1)} s (${new Date(l.at).toISOString().slice(11, 23)})`,
        )
        // The clock time (UTC) finds the moment in the database's own log.
        console.log(`  ${''.padEnd(30)} leads over 100 ms (since the leads' process started): ${slow.join(', ')}`)
      }
    }
  } finally {
    await b.stop()
    await a.stop()
    if (extra.length > 0) fs.writeFileSync(`${profile ?? '.'}/importing.log`, a.output())
    if (leadsExtra.length > 0) fs.writeFileSync(`${profile ?? '.'}/leads.log`, b.output())
    console.log(describeDiskFlush('after, the site stopped', await diskFlush(dir)))
    if (!process.env.BENCH_KEEP) a.cleanup()
    else console.log(`kept ${dir}`)
  }
}

ensureBuild()
const only = process.env.BENCH_DB
if (only !== 'postgres') await run('SQLite', {}, tempDir('vitrina-bench-exchange-'))
if (only === 'sqlite') {
  // PostgreSQL not asked for
} else if (TEST_DATABASE_URL) {
  const schema = await createTestSchema()
  try {
    await run('PostgreSQL', { DATABASE_URL: schema.url }, tempDir('vitrina-bench-exchange-pg-'))
  } finally {
    if (!process.env.BENCH_KEEP) await schema.drop()
    else {
      await schema.keep()
      console.log(`kept the schema ${new URL(schema.url).searchParams.get('options')}`)
    }
  }
} else {
  console.log('\nPostgreSQL: skipped (set TEST_DATABASE_URL)')
}
