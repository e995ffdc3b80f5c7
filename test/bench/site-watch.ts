// What a visitor meets while a long write runs (an import, an exchange): public pages asked for back
// to back and leads sent every 250 ms, timed from a process of their own. A visitor's browser is not
// the bench: timed on the bench's own event loop, a lead also counted the bench's pauses (its HTTP
// client driving the exchange, its collector), up to 43 ms of a 104 ms "slow" lead (decision 032).
// `watchSite` forks this file; run as that child it takes its orders over IPC.
import { fork } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { percentile } from './load'

export interface WatchResult {
  pageP50: number
  pageP99: number
  /** The slowest page, and the pages that waited past 100 ms: when asked for (epoch ms), how long, whether rendered anew, which of the watch's requests it was */
  pageMax: number
  slowPages: { at: number; ms: number; miss: boolean; nth: number }[]
  /** Pages rendered anew (not from the page cache, x-vitrina-cache: miss) and the slowest of them */
  pageMisses: number
  missMax: number
  /** The p99 of the pages the page cache answered */
  hitP99: number
  leadP99: number
  leadMax: number
  leadFailures: number
  leads: number
  /** Leads that waited past 100 ms: when they were sent (epoch ms) and how long they took */
  slowLeads: { at: number; ms: number }[]
}

export interface SiteWatch {
  /** Stops the loops; the public pages' latencies and the leads' as they were meanwhile */
  stop(): Promise<WatchResult>
}

interface WatchOrder {
  readonly pagesOn: string
  readonly paths: readonly string[]
  readonly leadsTo: string
}

/**
 * What a visitor meets while a long write runs: `paths` of `pagesOn` asked for back to back (20 ms
 * apart, in turn), and a lead sent to `leadsTo` (another process, or the same) every 250 ms, until
 * stopped; from a child process (this file), which has started both loops when this resolves.
 */
export async function watchSite(pagesOn: string, paths: readonly string[], leadsTo: string): Promise<SiteWatch> {
  const child = fork(fileURLToPath(import.meta.url), ['--watch-site'], { stdio: 'inherit' })
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`the site watch exited (${code})`))),
  )
  const next = () => Promise.race([new Promise<unknown>((resolve) => child.once('message', resolve)), exited])
  child.send({ pagesOn, paths, leadsTo } satisfies WatchOrder)
  await next() // started
  return {
    async stop() {
      child.send('stop')
      const result = (await next()) as WatchResult
      child.disconnect()
      return result
    },
  }
}

/** The loops themselves, in this process, until `stopped` resolves. */
async function watchLoops({ pagesOn, paths, leadsTo }: WatchOrder, stopped: Promise<void>): Promise<WatchResult> {
  let running = true
  const pages: number[] = []
  const hits: number[] = []
  const misses: number[] = []
  const leads: number[] = []
  const slowLeads: { at: number; ms: number }[] = []
  const slowPages: WatchResult['slowPages'] = []
  let failures = 0
  let n = 0
  const pageLoop = (async () => {
    for (let i = 0; running; i++) {
      const start = performance.now()
      const sentAt = Date.now()
      const url = `${pagesOn}${paths[i % paths.length]}`
      const res = await fetch(url, { headers: { 'user-agent': 'Mozilla/5.0 bench' } })
      await res.arrayBuffer()
      const ms = performance.now() - start
      pages.push(ms)
      const miss = res.headers.get('x-vitrina-cache') === 'miss'
      ;(miss ? misses : hits).push(ms)
      if (ms > 100) slowPages.push({ at: sentAt, ms, miss, nth: i + 1 })
      await new Promise((r) => setTimeout(r, 20))
    }
  })()
  const leadLoop = (async () => {
    while (running) {
      const start = performance.now()
      const sentAt = Date.now()
      const res = await fetch(`${leadsTo}/api/feedback`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          username: `Замер ${n++}`,
          phone: '+7 999 123-45-67',
          email: 'bench@example.ru',
          consent: true,
        }),
      }).catch(() => null)
      if (!res || res.status >= 300) failures++
      await res?.arrayBuffer()
      const ms = performance.now() - start
      leads.push(ms)
      if (ms > 100) slowLeads.push({ at: sentAt, ms })
      await new Promise((r) => setTimeout(r, 250))
    }
  })()
  await stopped
  running = false
  await Promise.all([pageLoop, leadLoop])
  for (const list of [pages, hits, misses, leads]) list.sort((x, y) => x - y)
  return {
    pageP50: percentile(pages, 50),
    pageP99: percentile(pages, 99),
    pageMax: pages.at(-1) ?? NaN,
    slowPages,
    pageMisses: misses.length,
    missMax: misses.at(-1) ?? NaN,
    hitP99: percentile(hits, 99),
    leadP99: percentile(leads, 99),
    leadMax: leads.at(-1) ?? NaN,
    leadFailures: failures,
    leads: leads.length,
    slowLeads,
  }
}

if (process.argv.includes('--watch-site') && process.send) {
  process.once('message', (order: WatchOrder) => {
    const stopped = new Promise<void>((resolve) => process.once('message', () => resolve()))
    void (async () => {
      // A first fetch loads undici and opens its connection (tens of ms): not the site's time. So
      // does a first POST with a body, which a fresh process compiles as it goes (9–22 ms on an idle
      // machine against 5 for the next, more on one an exchange keeps busy): an empty form, which
      // the site refuses (400) without storing anything.
      for (const url of [`${order.pagesOn}/robots.txt`, `${order.leadsTo}/robots.txt`]) {
        await fetch(url).then((res) => res.arrayBuffer())
      }
      const refused = await fetch(`${order.leadsTo}/api/feedback`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      })
      await refused.arrayBuffer()
      if (refused.status !== 400) throw new Error(`an empty form was answered ${refused.status}, not 400`)
      const result = watchLoops(order, stopped)
      process.send!('started')
      process.send!(await result)
    })()
  })
  process.once('disconnect', () => process.exit(0))
}
