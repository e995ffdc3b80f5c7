// The bench's back-office tables (issue 27, decision 028): a catalogue of 10,000 products (a section
// of 1,000 and 200 of 45) and 100,000 leads, written straight into the database. Timed one request
// after another (the owner is one person): «Содержимое»'s first screen in Chromium and its API call,
// opening the section of 1,000, the inbox's first page, a search, and the CSV of every lead with the
// server's peak resident memory while it streams.
import { openDatabase } from '../../server/data/db'
import { insertBigCatalogue } from '../helpers/big-catalogue'
import { launchBrowser, waitForVike } from '../helpers/browser'
import { tempDir } from '../helpers/build-test-app'
import { insertManyLeads } from '../helpers/many-leads'
import { startProdServer } from '../helpers/prod-server'
import { percentile, rssMiB } from './load'

const TOKEN = 'bench-admin-token-0123456789abcdef'
const AUTH = { authorization: `Bearer ${TOKEN}` }
const RUNS = 30
/** The issue's floor for «Содержимое»'s first screen at 10,000 products */
const FIRST_SCREEN_FLOOR_MS = 1000

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

export async function benchBackOffice(cpu: number): Promise<void> {
  const dir = tempDir('vitrina-bench-office-')
  const seeding = await startProdServer({ LOG_LEVEL: 'error', ADMIN_TOKEN: TOKEN }, dir)
  await seeding.stop()
  const db = await openDatabase({ kind: 'sqlite', path: seeding.dbPath, explicit: true })
  const fillStart = performance.now()
  const catalogue = await insertBigCatalogue(db, { sections: 200, perSection: 45, bigSection: 1000 })
  await insertManyLeads(db, 100_000)
  await db.destroy()
  console.log(
    `Back office: ${catalogue.products} products in ${catalogue.sectionIds.length} sections and 100,000 leads ` +
      `written in ${((performance.now() - fillStart) / 1000).toFixed(1)} s`,
  )

  const server = await startProdServer({ LOG_LEVEL: 'error', ADMIN_TOKEN: TOKEN }, dir, { cpu })
  const pid = server.child.pid!
  const rows: Record<string, string | number>[] = []
  const row = (what: string, t: { p50: number; p99: number }, note = '') =>
    rows.push({ 'back office': what, 'p50 ms': t.p50.toFixed(1), 'p99 ms': t.p99.toFixed(1), note })
  try {
    const api = `${server.url}/api/admin`
    row('tree: top level (API)', await timed(RUNS, () => getJson(`${api}/content/children`)))
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

    // The CSV of 100,000 leads, with the server's resident memory sampled while it streams.
    const before = rssMiB(pid)
    let peak = before
    const sampler = setInterval(() => (peak = Math.max(peak, rssMiB(pid))), 20)
    const csvStart = performance.now()
    const res = await fetch(`${api}/leads.csv`, { headers: AUTH })
    let bytes = 0
    let lines = 0
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      bytes += chunk.length
      for (const byte of chunk) if (byte === 10) lines++
    }
    const csvMs = performance.now() - csvStart
    clearInterval(sampler)
    rows.push({
      'back office': `CSV of every lead: ${lines - 1} rows, ${(bytes / 1024 / 1024).toFixed(1)} MiB`,
      'p50 ms': csvMs.toFixed(0),
      'p99 ms': '-',
      note: `server RSS ${before.toFixed(0)} → peak ${peak.toFixed(0)} MiB`,
    })

    // «Содержимое» in Chromium, signed in: from navigation to the tree's first rows.
    const browser = await launchBrowser()
    try {
      const page = await browser.newPage({ viewport: { width: 1366, height: 900 } })
      await page.goto(`${server.url}/admin`)
      await waitForVike(page, '/admin')
      await page.getByLabel('Пароль').fill(TOKEN)
      await page.getByRole('button', { name: 'Войти' }).click()
      await page.getByRole('button', { name: 'Выйти' }).waitFor()
      const screens: number[] = []
      const opens: number[] = []
      let domRows = 0
      for (let i = 0; i < 5; i++) {
        const start = performance.now()
        await page.goto(`${server.url}/admin/content`)
        await page.getByRole('button', { name: 'Открыть «Каталог»' }).waitFor()
        screens.push(performance.now() - start)
        await page.getByRole('button', { name: 'Открыть «Каталог»' }).click()
        const opened = performance.now()
        await page.getByRole('button', { name: 'Открыть «Большой раздел»' }).click()
        await page.getByRole('link', { name: 'Товар 50', exact: true }).waitFor()
        opens.push(performance.now() - opened)
        domRows = await page.locator('nav li').count()
      }
      screens.sort((a, b) => a - b)
      opens.sort((a, b) => a - b)
      rows.unshift(
        {
          'back office': '«Содержимое» first screen in Chromium (navigation → tree)',
          'p50 ms': percentile(screens, 50).toFixed(0),
          'p99 ms': screens.at(-1)!.toFixed(0),
          note: `floor ${FIRST_SCREEN_FLOOR_MS} ms; 5 runs, worst as p99`,
        },
        {
          'back office': '«Каталог» then the section of 1,000 opened in Chromium',
          'p50 ms': percentile(opens, 50).toFixed(0),
          'p99 ms': opens.at(-1)!.toFixed(0),
          note: `${domRows} tree rows in the DOM`,
        },
      )
    } finally {
      await browser.close()
    }
    console.log('The back office at 10,000 products and 100,000 leads (one request at a time):')
    console.table(rows)
  } finally {
    await server.stop()
    server.cleanup()
  }
}
