// The bench's back-office tables (issue 27, decision 028): a catalogue of 11,000 products (a section
// of 1,000 and 200 of 50) and 100,000 leads, written straight into the database. Timed one request
// after another (the owner is one person): «Содержимое»'s first screen in Chromium and the API calls
// it makes, opening the section of 1,000, the back office's search and a record opened from it, the
// inbox's first page, a search, and the CSV of every lead with the server's peak resident memory
// while it streams; then «Товары» (issue 33, products-office.ts). Part of `npm run bench`; alone:
// `npm run bench:office`. Never fails.
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Page } from 'playwright-core'
import { openDatabase } from '../../server/data/db'
import { insertBigCatalogue } from '../helpers/big-catalogue'
import { launchBrowser } from '../helpers/browser'
import { tempDir } from '../helpers/build-test-app'
import { insertManyLeads } from '../helpers/many-leads'
import { ensureBuild, startProdServer } from '../helpers/prod-server'
import { percentile, pinLoadGenerator, rssMiB } from './load'
import { benchProducts, signInToAdmin } from './products-office'

const TOKEN = 'bench-admin-token-0123456789abcdef'
const AUTH = { authorization: `Bearer ${TOKEN}` }
const RUNS = 30
const BROWSER_RUNS = 5
const LEADS = 100_000
/** The issue's floors at 10,000 products: «Содержимое»'s first screen, a record opened from the search */
const FLOOR_MS = 1000

type Row = Record<string, string | number>

async function timed(runs: number, once: () => Promise<unknown>) {
  const times: number[] = []
  for (let i = 0; i < runs; i++) {
    const start = performance.now()
    await once()
    times.push(performance.now() - start)
  }
  times.sort((a, b) => a - b)
  return { p50: percentile(times, 50), p99: percentile(times, 99) }
}

async function getJson(url: string): Promise<unknown> {
  const res = await fetch(url, { headers: AUTH })
  if (res.status !== 200) throw new Error(`${url}: ${res.status}`)
  return res.json()
}

function sorted(times: number[]) {
  const list = [...times].sort((a, b) => a - b)
  return { p50: percentile(list, 50), worst: list.at(-1)! }
}

function floorNote(worst: number, extra = '') {
  return `floor ${FLOOR_MS} ms: ${worst <= FLOOR_MS ? 'met' : 'NOT met'} (${BROWSER_RUNS} runs, worst as p99)${extra}`
}

/** The CSV of every lead, with the server's resident memory sampled while it streams. */
async function benchCsv(api: string, pid: number): Promise<Row> {
  const before = rssMiB(pid)
  let peak = before
  const sampler = setInterval(() => (peak = Math.max(peak, rssMiB(pid))), 20)
  const start = performance.now()
  const res = await fetch(`${api}/leads.csv`, { headers: AUTH })
  let bytes = 0
  let lines = 0
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.length
    for (const byte of chunk) if (byte === 10) lines++
  }
  const ms = performance.now() - start
  clearInterval(sampler)
  return {
    'back office': `CSV of every lead: ${lines - 1} rows, ${(bytes / 1024 / 1024).toFixed(1)} MiB`,
    'p50 ms': ms.toFixed(0),
    'p99 ms': '-',
    note: `server RSS ${before.toFixed(0)} → peak ${peak.toFixed(0)} MiB`,
  }
}

/** «Содержимое» in Chromium, signed in: its first screen, the section of 1,000, a record from the search. */
async function benchInChromium(baseUrl: string, article: string): Promise<{ rows: Row[]; firstScreenApi: string[] }> {
  const browser = await launchBrowser()
  try {
    const page = await browser.newPage({ viewport: { width: 1366, height: 900 } })
    await signInToAdmin(page, baseUrl, TOKEN)
    const tree = page.getByRole('navigation', { name: 'Структура сайта' })
    // The API calls of the first screen, as the screen makes them (the tree opens small branches itself).
    const firstScreenApi = new Set<string>()
    const listen = (request: { url(): string }) => {
      // The tree's reads (the session check beside them is the same on every screen)
      if (request.url().includes('/api/admin/content/')) firstScreenApi.add(request.url().slice(baseUrl.length))
    }
    const screens: number[] = []
    const opens: number[] = []
    const found: number[] = []
    const edited: number[] = []
    let domRows = 0
    for (let i = 0; i < BROWSER_RUNS; i++) {
      if (i === 0) page.on('request', listen)
      const start = performance.now()
      await page.goto(`${baseUrl}/admin/content`)
      await tree.getByRole('button', { name: 'Открыть «Каталог»' }).waitFor()
      screens.push(performance.now() - start)
      if (i === 0) {
        await page.waitForLoadState('networkidle')
        page.off('request', listen)
      }
      const opened = performance.now()
      await tree.getByRole('button', { name: 'Открыть «Каталог»' }).click()
      await tree.getByRole('button', { name: 'Открыть «Большой раздел»' }).click()
      await tree.getByRole('link', { name: 'Товар 50', exact: true }).waitFor()
      opens.push(performance.now() - opened)
      domRows = await tree.locator('li').count()
      const search = await openFromSearch(page, article)
      found.push(search.found)
      edited.push(search.opened)
    }
    const screen = sorted(screens)
    const open = sorted(opens)
    const search = sorted(found)
    const editor = sorted(edited)
    return {
      firstScreenApi: [...firstScreenApi],
      rows: [
        {
          'back office': '«Содержимое» first screen in Chromium (navigation → tree)',
          'p50 ms': screen.p50.toFixed(0),
          'p99 ms': screen.worst.toFixed(0),
          note: floorNote(screen.worst),
        },
        {
          'back office': '«Каталог» then the section of 1,000 opened in Chromium',
          'p50 ms': open.p50.toFixed(0),
          'p99 ms': open.worst.toFixed(0),
          note: `${domRows} tree rows in the DOM`,
        },
        {
          'back office': `search «${article}» typed → its product among the results`,
          'p50 ms': search.p50.toFixed(0),
          'p99 ms': search.worst.toFixed(0),
          note: 'the 250 ms debounce included',
        },
        {
          'back office': 'the found product clicked → its editor open',
          'p50 ms': editor.p50.toFixed(0),
          'p99 ms': editor.worst.toFixed(0),
          note: floorNote(editor.worst),
        },
      ],
    }
  } finally {
    await browser.close()
  }
}

/**
 * An артикул typed into «Содержимое»'s search: milliseconds until its product is among the results
 * (the 250 ms debounce included), then from the click on it until its editor is open.
 */
async function openFromSearch(page: Page, article: string): Promise<{ found: number; opened: number }> {
  const start = performance.now()
  await page.getByLabel('Найти запись: название, адрес или артикул').fill(article)
  const result = page.locator('.content-search__results').getByRole('link', { name: 'Товар 777', exact: true })
  await result.waitFor()
  const shown = performance.now()
  await result.click()
  await page.getByRole('heading', { name: 'Товар 777', level: 1 }).waitFor()
  return { found: shown - start, opened: performance.now() - shown }
}

export async function benchBackOffice(cpu: number): Promise<void> {
  const dir = tempDir('vitrina-bench-office-')
  const seeding = await startProdServer({ LOG_LEVEL: 'error', ADMIN_TOKEN: TOKEN }, dir)
  await seeding.stop()
  const db = await openDatabase({ kind: 'sqlite', path: seeding.dbPath, explicit: true })
  const fillStart = performance.now()
  const catalogue = await insertBigCatalogue(db, { sections: 200, perSection: 50, bigSection: 1000 })
  await insertManyLeads(db, LEADS)
  await db.destroy()
  console.log(
    `Back office: ${catalogue.products} products in ${catalogue.sectionIds.length} sections and ${LEADS} leads ` +
      `written in ${((performance.now() - fillStart) / 1000).toFixed(1)} s; load average ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')} on ${os.cpus().length} CPUs`,
  )

  const startAt = performance.now()
  const env = { LOG_LEVEL: 'error', ADMIN_TOKEN: TOKEN }
  const server = await startProdServer(env, dir, { cpu })
  console.log(`Server ready in ${((performance.now() - startAt) / 1000).toFixed(1)} s (search index filled at start)`)
  const pid = server.child.pid!
  const rows: Row[] = []
  const row = (what: string, t: { p50: number; p99: number }, note = '') =>
    rows.push({ 'back office': what, 'p50 ms': t.p50.toFixed(1), 'p99 ms': t.p99.toFixed(1), note })
  const article = `бк${catalogue.bigSectionId}-777`
  try {
    const api = `${server.url}/api/admin`
    const chromium = await benchInChromium(server.url, article)
    row(
      `first screen's API calls, one after another (${chromium.firstScreenApi.length})`,
      await timed(RUNS, async () => {
        for (const url of chromium.firstScreenApi) await getJson(`${server.url}${url}`)
      }),
      chromium.firstScreenApi.join(' ').slice(0, 120),
    )
    row(
      'tree: «Каталог», 201 sections, first 50 (API)',
      await timed(RUNS, () => getJson(`${api}/content/children?parentId=${catalogue.catalogueId}`)),
    )
    row(
      'tree: open the section of 1,000 (API)',
      await timed(RUNS, () => getJson(`${api}/content/children?parentId=${catalogue.bigSectionId}`)),
    )
    row(
      'tree: its last page, skip 950 (API)',
      await timed(RUNS, () => getJson(`${api}/content/children?parentId=${catalogue.bigSectionId}&skip=950`)),
    )
    for (const q of ['Модель 150. 7', article, '/structure/section-17/', 'ничегонет']) {
      row(`search «${q}» (API)`, await timed(RUNS, () => getJson(`${api}/search?q=${encodeURIComponent(q)}`)))
    }
    row('inbox: first page of «Новые» (20)', await timed(RUNS, () => getJson(`${api}/leads?tab=new`)))
    const after = ((await getJson(`${api}/leads?tab=new`)) as { next: { after: string } }).next.after
    row(
      'inbox: the next page (keyset)',
      await timed(RUNS, () => getJson(`${api}/leads?tab=new&after=${encodeURIComponent(after)}`)),
    )
    row(
      'inbox: search «покупатель 4242»',
      await timed(RUNS, () => getJson(`${api}/leads?tab=new&q=${encodeURIComponent('покупатель 4242')}`)),
    )
    row(
      'inbox: search a phone «8 900 000-42-42»',
      await timed(RUNS, () => getJson(`${api}/leads?tab=new&q=${encodeURIComponent('8 900 000-42-42')}`)),
    )
    rows.push(await benchCsv(api, pid))
    rows.unshift(...chromium.rows)
    console.log(`The back office at ${catalogue.products} products and ${LEADS} leads (one request at a time):`)
    console.table(rows)
    await benchProducts(server, env, { token: TOKEN, ...catalogue })
  } finally {
    await server.stop()
    server.cleanup()
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  ensureBuild()
  pinLoadGenerator(0)
  await benchBackOffice(1)
}
