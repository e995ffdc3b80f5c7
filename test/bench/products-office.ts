// «Товары» at catalogue scale (issue 33), the back-office bench's second part (back-office.ts calls
// it on its catalogue of 11,000 products): the screen's first screen in Chromium (navigation → its
// first rows) and each filter or sort from the click or choice until the table shows the new rows,
// the same pages through the API; a price change by 5 % on «все N по фильтру», sent as the screen
// sends it (the ids, then POST /actions in batches), while the public pages are asked for on the
// writing process and leads are sent to a second process on the same database; the XLSX of the
// whole catalogue with the server's resident memory sampled. Beside the floors; never fails.
import { randomUUID } from 'node:crypto'
import type { Page } from 'playwright-core'
import { ADMIN_API_PATHS, ADMIN_PATHS } from '../../src/site/paths'
import { launchBrowser, waitForVike } from '../helpers/browser'
import { startProdServer, type ProdServer } from '../helpers/prod-server'
import { percentile, rssMiB } from './load'
import { watchSite } from './site-watch'

/** The floors */
const FLOORS = { firstScreenMs: 1000, filterMs: 300, priceChangeMs: 10_000, pageP99Ms: 100, xlsxMs: 5000, xlsxMiB: 50 }
const RUNS = 30
const BROWSER_RUNS = 5
const PAGE_SIZE = '50' // what the screen asks for (ProductsScreen.tsx)
const ROW_TITLES = '.products__table tbody tr td[data-label="Название"] a'

type Row = Record<string, string | number>

const met = (value: number, floor: number) => (value <= floor ? 'met' : 'NOT met')

function spread(times: number[]) {
  const list = [...times].sort((a, b) => a - b)
  return { p50: percentile(list, 50), p99: percentile(list, 99), worst: list.at(-1)! }
}

/** Signs in through the back office's form, as the owner does. */
export async function signInToAdmin(page: Page, baseUrl: string, token: string): Promise<void> {
  await page.goto(`${baseUrl}/admin`)
  await waitForVike(page, '/admin')
  await page.getByLabel('Пароль').fill(token)
  await page.getByRole('button', { name: 'Войти' }).click()
  await page.getByRole('button', { name: 'Выйти' }).waitFor()
}

interface View {
  readonly label: string
  /** The screen's query after the change (the filter and sort keys of its URL) */
  readonly query: Record<string, string>
  /** The owner's click or choice on the screen */
  readonly apply: (page: Page) => Promise<unknown>
}

function views(bigSectionId: number): View[] {
  const filters = (page: Page) => page.getByRole('form', { name: 'Фильтры товаров' })
  return [
    { label: '«Без фото»', query: { noPhoto: '1' }, apply: (p) => filters(p).getByLabel('Без фото').check() },
    {
      label: 'a section: «Большой раздел»',
      query: { section: String(bigSectionId) },
      apply: (p) => filters(p).getByLabel('Раздел', { exact: true }).selectOption(String(bigSectionId)),
    },
    {
      label: 'availability: «Нет в наличии»',
      query: { avail: 'out_of_stock' },
      apply: (p) => filters(p).getByLabel('Наличие', { exact: true }).selectOption('out_of_stock'),
    },
    { label: '«Без цены»', query: { noPrice: '1' }, apply: (p) => filters(p).getByLabel('Без цены').check() },
    {
      label: 'sort by price (the column header)',
      query: { sort: 'price' },
      apply: (p) => p.locator('.products__table thead').getByRole('button', { name: 'Цена', exact: true }).click(),
    },
    {
      label: 'sort by changed, newest first',
      query: { sort: 'updatedAt', dir: 'desc' },
      apply: (p) => filters(p).getByLabel('Сортировка').selectOption('updatedAt:desc'),
    },
  ]
}

/** The titles of the rows the screen shows for `query`, from the API the screen calls. */
async function expectedTitles(baseUrl: string, auth: Record<string, string>, query: Record<string, string>) {
  const url = `${baseUrl}${ADMIN_API_PATHS.products}?${new URLSearchParams({ ...query, pageSize: PAGE_SIZE })}`
  const res = await fetch(url, { headers: auth })
  if (res.status !== 200) throw new Error(`${url}: ${res.status}`)
  return ((await res.json()) as { data: { title: string }[] }).data.map((row) => row.title)
}

/**
 * Milliseconds in the page from the owner's act (the first pointer or change event) to the frame
 * in which the table holds `titles`: the screen's own time, without the browser driver's.
 */
async function showsRows(page: Page, titles: string[], act?: () => Promise<unknown>): Promise<number> {
  await page.evaluate(() => {
    const w = window as unknown as { actAt?: number }
    w.actAt = undefined
    for (const type of ['pointerdown', 'input', 'change'])
      document.addEventListener(type, () => (w.actAt ??= performance.now()), { capture: true, once: true })
  })
  await act?.()
  const shown = await page.waitForFunction(
    ([selector, expected]) => {
      const rows = [...document.querySelectorAll(selector)].map((a) => a.textContent)
      if (rows.length !== expected.length || rows.some((title, i) => title !== expected[i])) return false
      return performance.now() - ((window as unknown as { actAt?: number }).actAt ?? 0)
    },
    [ROW_TITLES, titles] as const,
    { polling: 'raf' },
  )
  return (await shown.jsonValue()) as number
}

async function inChromium(server: ProdServer, token: string, bigSectionId: number): Promise<Row[]> {
  const auth = { authorization: `Bearer ${token}` }
  const browser = await launchBrowser()
  try {
    const page = await browser.newPage({ viewport: { width: 1366, height: 900 } })
    await signInToAdmin(page, server.url, token)
    const first = await expectedTitles(server.url, auth, {})
    const open = async () => {
      const start = performance.now()
      await page.goto(`${server.url}${ADMIN_PATHS.products}`)
      await showsRows(page, first)
      return performance.now() - start
    }
    const screens: number[] = []
    for (let i = 0; i < BROWSER_RUNS; i++) screens.push(await open())
    const screen = spread(screens)
    const rows: Row[] = [
      {
        '«Товары»': `first screen in Chromium (navigation → its ${first.length} rows shown)`,
        'p50 ms': screen.p50.toFixed(0),
        'p99 ms': screen.worst.toFixed(0),
        note: `floor ${FLOORS.firstScreenMs} ms: ${met(screen.worst, FLOORS.firstScreenMs)} (${BROWSER_RUNS} runs, worst as p99)`,
      },
    ]
    for (const view of views(bigSectionId)) {
      const expected = await expectedTitles(server.url, auth, view.query)
      const times: number[] = []
      for (let i = 0; i < BROWSER_RUNS; i++) {
        await open()
        // The section filter's options arrive with the screen's second call; the choice needs them.
        await page.locator(`option[value="${bigSectionId}"]`).first().waitFor({ state: 'attached' })
        times.push(await showsRows(page, expected, () => view.apply(page)))
      }
      const t = spread(times)
      rows.push({
        '«Товары»': `${view.label}: the act → new rows shown (Chromium)`,
        'p50 ms': t.p50.toFixed(0),
        'p99 ms': t.worst.toFixed(0),
        note: `floor ${FLOORS.filterMs} ms: ${met(t.worst, FLOORS.filterMs)} (${BROWSER_RUNS} runs, worst as p99)`,
      })
    }
    return rows
  } finally {
    await browser.close()
  }
}

async function throughApi(server: ProdServer, token: string, bigSectionId: number): Promise<Row[]> {
  const headers = { authorization: `Bearer ${token}` }
  const get = async (path: string) => {
    const res = await fetch(`${server.url}${path}`, { headers })
    if (res.status !== 200) throw new Error(`${path}: ${res.status}`)
    await res.arrayBuffer()
  }
  const timed = async (once: () => Promise<unknown>) => {
    const times: number[] = []
    for (let i = 0; i < RUNS; i++) {
      const start = performance.now()
      await once()
      times.push(performance.now() - start)
    }
    return spread(times)
  }
  const row = (label: string, t: { p50: number; p99: number }, floor: number) => ({
    '«Товары»': label,
    'p50 ms': t.p50.toFixed(1),
    'p99 ms': t.p99.toFixed(1),
    note: `floor ${floor} ms: ${met(t.p99, floor)} (${RUNS} runs)`,
  })
  const products = (query: Record<string, string>) =>
    `${ADMIN_API_PATHS.products}?${new URLSearchParams({ ...query, pageSize: PAGE_SIZE })}`
  const rows: Row[] = [
    row(
      'first screen: a page, the sections, the audit (API, one after another)',
      await timed(async () => {
        for (const path of [products({}), ADMIN_API_PATHS.productSections, ADMIN_API_PATHS.productAudit])
          await get(path)
      }),
      FLOORS.firstScreenMs,
    ),
  ]
  for (const view of views(bigSectionId)) {
    rows.push(row(`${view.label} (API)`, await timed(() => get(products(view.query))), FLOORS.filterMs))
  }
  const first = await fetch(`${server.url}${products({ sort: 'price' })}`, { headers })
  const after = ((await first.json()) as { next: string }).next
  const label = 'sort by price, its next page (API)'
  rows.push(row(label, await timed(() => get(products({ sort: 'price', after }))), FLOORS.filterMs))
  return rows
}

/** The XLSX of the whole catalogue, with the server's resident memory sampled while it streams. */
async function xlsx(server: ProdServer, token: string, run: number): Promise<Row> {
  const pid = server.child.pid!
  const before = rssMiB(pid)
  let peak = before
  const sampler = setInterval(() => (peak = Math.max(peak, rssMiB(pid))), 20)
  const start = performance.now()
  const res = await fetch(`${server.url}${ADMIN_API_PATHS.priceListXlsx}`, {
    headers: { authorization: `Bearer ${token}` },
  })
  let bytes = 0
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) bytes += chunk.length
  const ms = performance.now() - start
  clearInterval(sampler)
  const grew = peak - before
  return {
    '«Товары»': `price list XLSX of every product, ${run === 1 ? 'first (loads exceljs)' : 'again'}: ${(bytes / 1024 / 1024).toFixed(1)} MiB`,
    'p50 ms': ms.toFixed(0),
    'p99 ms': '-',
    note:
      `floor ${FLOORS.xlsxMs / 1000} s: ${met(ms, FLOORS.xlsxMs)}; server RSS ${before.toFixed(0)} → peak ${peak.toFixed(0)} MiB ` +
      `(+${grew.toFixed(0)}, floor +${FLOORS.xlsxMiB}: ${met(grew, FLOORS.xlsxMiB)})`,
  }
}

/**
 * «Изменить цену» +5 % on «все N по фильтру» (the whole catalogue), sent as the screen sends it:
 * the ids, then the batches one after another. Meanwhile a home, a section and a product page are
 * asked for on this process, and leads go to a second process on the same database. A page a batch
 * changed is rendered anew, and after each write the whole route map (server/content/route-map.ts)
 * is reloaded by the next page rendered: the page cache's misses are printed apart.
 */
async function priceChange(server: ProdServer, env: Record<string, string>, token: string): Promise<Row[]> {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' }
  const second = await startProdServer(
    { ...env, SEED_DEMO: 'false', LEAD_RATE_LIMIT: '0', LEAD_MIN_FILL_SECONDS: '0' },
    server.dir,
  )
  try {
    // A running site's pages: each rendered a few times before, as visitors had asked for them.
    const pages = ['/', '/structure/big/', '/structure/section-7/item-3']
    for (let i = 0; i < 5; i++) for (const path of pages) await (await fetch(`${server.url}${path}`)).arrayBuffer()
    const watching = await watchSite(server.url, pages, second.url)
    const start = performance.now()
    const res = await fetch(`${server.url}${ADMIN_API_PATHS.productIds}`, { headers })
    const { ids, batch } = ((await res.json()) as { data: { ids: number[]; batch: number } }).data
    const operation = randomUUID()
    const action = { kind: 'price', percent: 5, keepOldPrice: false }
    let changed = 0
    const batches: number[] = []
    for (let i = 0; i < ids.length; i += batch) {
      const at = performance.now()
      const answer = await fetch(`${server.url}${ADMIN_API_PATHS.productActions}`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ operation, ids: ids.slice(i, i + batch), action }),
      })
      if (answer.status !== 200) throw new Error(`batch ${i / batch}: ${answer.status} ${await answer.text()}`)
      changed += ((await answer.json()) as { data: { changed: number } }).data.changed
      batches.push(performance.now() - at)
    }
    const ms = performance.now() - start
    const seen = await watching.stop()
    const each = spread(batches)
    return [
      {
        '«Товары»': `price +5 % on all ${ids.length} by the filter: ${batches.length} batches of ≤${batch}, ${changed} changed`,
        'p50 ms': each.p50.toFixed(0),
        'p99 ms': each.worst.toFixed(0),
        note: `in all ${(ms / 1000).toFixed(1)} s (floor ${FLOORS.priceChangeMs / 1000} s: ${met(ms, FLOORS.priceChangeMs)}); p50/p99 are a batch's`,
      },
      {
        '«Товары»': 'meanwhile: public pages on the writing process (home, section, product)',
        'p50 ms': seen.pageP50.toFixed(0),
        'p99 ms': seen.pageP99.toFixed(0),
        note:
          `floor p99 ${FLOORS.pageP99Ms} ms: ${met(seen.pageP99, FLOORS.pageP99Ms)}; page cache hits p99 ` +
          `${seen.hitP99.toFixed(0)} ms, ${seen.pageMisses} rendered anew, the slowest ${seen.missMax.toFixed(0)} ms`,
      },
      {
        '«Товары»': 'meanwhile: leads sent to a second process on the same database',
        'p50 ms': '-',
        'p99 ms': seen.leadP99.toFixed(0),
        note: `${seen.leads - seen.leadFailures} of ${seen.leads} accepted (${seen.leadFailures === 0 ? 'met' : 'NOT met'}), worst ${seen.leadMax.toFixed(0)} ms`,
      },
    ]
  } finally {
    await second.stop()
  }
}

/** «Товары»'s part of the back-office bench, on the running `server` with its catalogue. */
export async function benchProducts(
  server: ProdServer,
  env: Record<string, string>,
  { token, bigSectionId, products }: { token: string; bigSectionId: number; products: number },
): Promise<void> {
  const rows = [...(await inChromium(server, token, bigSectionId)), ...(await throughApi(server, token, bigSectionId))]
  rows.push(await xlsx(server, token, 1), await xlsx(server, token, 2))
  rows.push(...(await priceChange(server, env, token)))
  console.log(`«Товары» at ${products} products:`)
  console.table(rows)
}
