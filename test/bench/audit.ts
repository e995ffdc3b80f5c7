// `npm run audit`: Lighthouse (mobile form factor, its default throttling) over the production
// build: home, a section, a product and the 404. Prints the four category scores per page against
// the floors and the titles of the audits that failed. Numbers only: it never fails a build.
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import lighthouse, { type Result } from 'lighthouse'
import { CHROMIUM_ARGS, findChromium } from '../helpers/browser'
import { ensureBuild, startProdServer } from '../helpers/prod-server'

const PAGES = ['/', '/structure/', '/structure/product', '/no-such-page']
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const
const FLOORS: Record<(typeof CATEGORIES)[number], number> = {
  performance: 0.95,
  accessibility: 1,
  'best-practices': 1,
  seo: 1,
}
// A 404 says noindex on purpose: Lighthouse's SEO category marks that as a failure.
const SEO_EXEMPT = new Set(['/no-such-page'])
const RUNS = Number(process.env.AUDIT_RUNS ?? 3)

/**
 * Chrome logs a 404 document's own status as a console error, which costs the 404 page its
 * best-practices point; that error alone (and nothing else in the category) is the page doing its job.
 */
function onlyOwnStatus(lhr: Result, category: string): boolean {
  if (category !== 'best-practices') return false
  const failing = (lhr.categories[category]?.auditRefs ?? []).filter(
    (ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1,
  )
  type ConsoleItem = { source?: string; sourceLocation?: { url?: string } }
  const items = (lhr.audits['errors-in-console']?.details as { items?: ConsoleItem[] } | undefined)?.items
  return (
    failing.length === 1 &&
    failing[0].id === 'errors-in-console' &&
    lhr.mainDocumentUrl !== undefined &&
    items?.length === 1 &&
    items[0].source === 'network' &&
    new URL(items[0].sourceLocation?.url ?? '', lhr.mainDocumentUrl).href === new URL(lhr.mainDocumentUrl).href
  )
}

interface Chrome {
  port: number
  process: ChildProcess
  profile: string
}

/** Debian's Chromium when present (CHROME_PATH), else the one the browser tests find. */
async function startChrome(): Promise<Chrome> {
  const debian = '/usr/bin/chromium'
  const found = fs.existsSync(debian) ? { executablePath: debian, env: {} } : await findChromium()
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrina-lighthouse-'))
  const child = spawn(
    found.executablePath,
    ['--headless=new', ...CHROMIUM_ARGS, '--remote-debugging-port=0', `--user-data-dir=${profile}`, 'about:blank'],
    { env: { ...process.env, ...found.env }, stdio: ['ignore', 'ignore', 'pipe'] },
  )
  const port = await new Promise<number>((resolve, reject) => {
    let output = ''
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString()
      const match = /DevTools listening on ws:\/\/[^:]+:(\d+)\//.exec(output)
      if (match) resolve(Number(match[1]))
    })
    child.once('exit', (code) => reject(new Error(`Chromium exited with ${code}: ${output}`)))
  })
  return { port, process: child, profile }
}

ensureBuild()
const server = await startProdServer({ LOG_LEVEL: 'error' })
const chrome = await startChrome()
const reports = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrina-audit-'))
const rows: Record<string, string>[] = []
const failures: string[] = []
const performance: string[] = []
try {
  for (const page of PAGES) {
    // Mobile form factor, simulated slow 4G and 4× CPU slowdown: Lighthouse's defaults.
    // The 404 is audited as the page a visitor sees (Lighthouse stops at an error status otherwise).
    // Performance varies from run to run on a shared machine: the median of RUNS runs is shown.
    const runs: Result[] = []
    for (let attempt = 0; runs.length < RUNS && attempt < RUNS + 2; attempt++) {
      const result = await lighthouse(server.url + page, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: [...CATEGORIES],
        formFactor: 'mobile',
        ignoreStatusCode: true,
      })
      if (!result) throw new Error(`Lighthouse returned nothing for ${page}`)
      if (result.lhr.runtimeError) failures.push(`${page}: ${result.lhr.runtimeError.message} (run repeated)`)
      else runs.push(result.lhr)
    }
    if (runs.length === 0) continue
    runs.sort((a, b) => (a.categories.performance?.score ?? 0) - (b.categories.performance?.score ?? 0))
    const lhr = runs[Math.floor(runs.length / 2)]
    fs.writeFileSync(path.join(reports, `${page.replaceAll('/', '_')}.json`), JSON.stringify(lhr))
    const row: Record<string, string> = { page }
    for (const id of CATEGORIES) {
      const score = lhr.categories[id]?.score ?? null
      const exempt = (id === 'seo' && SEO_EXEMPT.has(page)) || onlyOwnStatus(lhr, id)
      const below = score === null || (score < FLOORS[id] && !exempt)
      row[id] =
        `${score === null ? '?' : score.toFixed(2)}${below ? ' (below floor)' : exempt && score < 1 ? ' (exempt)' : ''}`
      for (const ref of lhr.categories[id]?.auditRefs ?? []) {
        const audit = lhr.audits[ref.id]
        if (!audit || ref.weight === 0 || audit.score === null || audit.score >= 0.9) continue
        const value = audit.displayValue ? ` (${audit.displayValue})` : ''
        failures.push(`${page} ${id}: ${audit.title}${value}`)
      }
    }
    performance.push(`${page} ${runs.map((r) => r.categories.performance?.score?.toFixed(2)).join(' ')}`)
    rows.push(row)
  }
} finally {
  chrome.process.kill()
  await server.stop()
  server.cleanup()
  fs.rmSync(chrome.profile, { recursive: true, force: true })
}
console.log(
  `Lighthouse, mobile: floors performance ${FLOORS.performance}, accessibility ${FLOORS.accessibility}, ` +
    `best practices ${FLOORS['best-practices']}, SEO ${FLOORS.seo} (not for the 404); median of ${RUNS} runs`,
)
console.table(rows)
console.log(`Performance of each run (the median is shown):\n  ${performance.join('\n  ')}`)
console.log(failures.length ? `Audits below 0.9:\n  ${failures.join('\n  ')}` : 'No audit below 0.9.')
console.log(`Full reports (JSON, open in https://googlechrome.github.io/lighthouse/viewer/): ${reports}`)
