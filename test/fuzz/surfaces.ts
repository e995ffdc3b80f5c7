// The catalogue's newer surfaces under `npm run fuzz` (issue #36): the search's `q` of every shape
// (typo-heavy, many words, control characters, FTS5 and tsquery syntax, over-long), a section's
// price filter with random ranges, `/og-image/` and `/feed-image/` with every name the media store
// holds (originals, and derived files, which must answer 404 before any work), and the Yandex
// feed with each Accept-Encoding. Findings: a 5xx or a dropped connection, an answer slower than
// 200 ms, a derived name answered with anything but 404, and a page asked for without parameters
// that the page cache lost while the run varied the parameters (its `x-vitrina-cache` says `hit`
// again afterwards).
import fs from 'node:fs'
import path from 'node:path'
import fc from 'fast-check'
import { Pool } from 'undici'
import { isImageSource } from '../../server/media/image-source'
import { stringifyQuery } from '../../src/api/query-string'
import { photo, variantUrls } from '../helpers/media'
import { multipartBody } from '../helpers/multipart'

export interface SurfaceOptions {
  readonly url: string
  /** The server's media folder: every stored name is asked for */
  readonly mediaDir: string
  readonly adminToken: string
  /** Generated search and filter requests (the media names and feed encodings come on top) */
  readonly requests: number
  readonly seed?: number
  readonly concurrency?: number
}

export interface SurfaceResult {
  readonly sent: number
  readonly statuses: Record<string, number>
  readonly failures: string[]
  readonly slow: string[]
  readonly maxMs: number
  readonly p50: number
  readonly p99: number
  /** Derived media names answered with something other than 404 */
  readonly derivedServed: string[]
  /** Pages without parameters no longer in the page cache after the run */
  readonly evicted: string[]
  /** Stored media names asked for, originals and derived */
  readonly mediaNames: { originals: number; derived: number }
  /** The share images and feed pictures made before the run (one each per original), timed apart */
  readonly firstRenders: { count: number; maxMs: number }
}

/** Pages asked for without parameters before and after the run: each must still be a cache hit. */
const PLAIN_PAGES = ['/', '/structure/', '/structure/power-tools/', '/contacts/']
const SECTION = '/structure/power-tools/'

const CYRILLIC = 'абвгдеёжзийклмнопрстуфхцчшщъыьэюя'
const SYNTAX = [
  '"',
  '*',
  '^',
  ':',
  '(',
  ')',
  '-',
  '+',
  'NEAR(',
  'AND',
  'OR',
  'NOT',
  '{',
  '}', // FTS5
  '&',
  '|',
  '!',
  '<->',
  '<2>',
  ':*',
  "'",
  '\\',
  '%',
  '_', // tsquery, LIKE
]

const word = fc
  .array(fc.constantFrom(...CYRILLIC, ...'abcdefghijklmnopqrstuvwxyz0123456789'), { minLength: 1, maxLength: 14 })
  .map((chars) => chars.join(''))

/** A visitor's search text of every shape */
const searchText = fc.oneof(
  // Typo-heavy: unknown words of 5 to 12 letters, up to 12 of them
  fc.array(word, { minLength: 1, maxLength: 12 }).map((words) => words.join(' ')),
  // Many words, past the limit
  fc.array(word, { minLength: 9, maxLength: 40 }).map((words) => words.join(' ')),
  // Search syntax of both databases among words
  fc.array(fc.oneof(word, fc.constantFrom(...SYNTAX)), { minLength: 1, maxLength: 10 }).map((parts) => parts.join(' ')),
  fc.array(fc.oneof(word, fc.constantFrom(...SYNTAX)), { minLength: 1, maxLength: 10 }).map((parts) => parts.join('')),
  // Control characters and any code unit
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc
    .array(
      fc.oneof(
        word,
        fc.integer({ min: 0, max: 0x1f }).map((c) => String.fromCharCode(c)),
      ),
      { maxLength: 12 },
    )
    .map((parts) => parts.join('')),
  // Over-long
  fc.string({ minLength: 190, maxLength: 400 }),
  // Артикулы and numbers
  fc.tuple(fc.constantFrom('G', 'ЭИ', 'AB', 'Ф'), fc.integer({ min: 0, max: 100_000 })).map(([a, n]) => `${a}-${n}`),
)

const priceValue = fc.oneof(
  fc.integer({ min: -1000, max: 1_000_000 }).map(String),
  fc.double({ noNaN: false }).map(String),
  fc.constantFrom('', 'abc', '1e309', '-0', '0x10', '١٢٣', '100.5', '99999999999999999999', '%00', ' 5'),
)

/** A section page with a random price range, and sometimes its other parameters */
const filterPath = fc
  .record({
    min: fc.option(priceValue),
    max: fc.option(priceValue),
    sort: fc.option(fc.constantFrom('price', '-price', 'new', 'x')),
    page: fc.option(fc.integer({ min: -2, max: 300 }).map(String)),
    avail: fc.option(fc.constantFrom('in_stock', 'on_order', 'nope')),
  })
  .map((params) => {
    const search = new URLSearchParams()
    for (const [name, value] of Object.entries(params)) if (value !== null) search.set(name, value)
    return `${SECTION}?${search}`
  })

const ENCODINGS = ['gzip', 'br', 'identity', 'br, gzip', 'gzip;q=0, br;q=0', 'x-garbage', '*', 'br;q=abc', '']

/** An answer slower than this is a finding, as in fuzz.ts */
const MAX_ANSWER_MS = 200

type Job = { path: string; headers?: Record<string, string>; derived?: boolean }

/** Every file under the media folder, as its stored name (`uploads/…`, `demo/…`, `og/…`). */
function storedNames(dir: string): string[] {
  if (!fs.existsSync(dir)) return []
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .filter((name) => !name.split('/').some((part) => part.startsWith('.')))
}

/**
 * What the store holds before the run: two products with a photo (through the write API), their
 * variants made by asking for their pages' pictures, and the share image and feed picture of every
 * original. Those first renderings are real work, once per original (a JPEG made from a photo:
 * 100–500 ms of CPU), and are timed apart: the run measures what asking again costs, and that
 * nothing else can be made.
 */
async function prepare(options: SurfaceOptions): Promise<{ count: number; maxMs: number }> {
  const { url, adminToken } = options
  const query = stringifyQuery({ query: { where: { urlFull: SECTION } } })
  const section = await (await fetch(`${url}/api/many/structure?${query}`)).text()
  const parentId = Number(/"id":(\d+)/.exec(section)?.[1])
  if (!parentId) throw new Error(`no section ${SECTION}: ${section.slice(0, 200)}`)
  for (let i = 0; i < 2; i++) {
    const data = {
      parentId,
      typeId: 'product',
      title: `Товар для фаззера ${i}`,
      urlFull: `${SECTION}fuzz-photo-${i}`,
      product: { price: 1990 + i },
    }
    const body = multipartBody({ data: JSON.stringify(data) }, [
      { name: 'product.image', filename: 'photo.jpg', bytes: await photo(1600 + i * 10, 1200) },
    ])
    const res = await fetch(`${url}/api/structure`, {
      method: 'POST',
      headers: { ...body.headers, authorization: `Bearer ${adminToken}` },
      body: new Uint8Array(body.payload),
    })
    if (res.status !== 201 && res.status !== 200) throw new Error(`upload answered ${res.status}: ${await res.text()}`)
  }
  for (const page of [SECTION, `${SECTION}fuzz-photo-0`, `${SECTION}fuzz-photo-1`]) {
    const html = await (await fetch(url + page)).text()
    for (const src of new Set(variantUrls(html))) await (await fetch(new URL(src, url))).arrayBuffer()
  }
  const renders = { count: 0, maxMs: 0 }
  for (const name of storedNames(options.mediaDir).filter(isImageSource)) {
    for (const prefix of ['/og-image/', '/feed-image/']) {
      const started = performance.now()
      await (await fetch(`${url}${prefix}${name}`)).arrayBuffer()
      renders.count++
      renders.maxMs = Math.max(renders.maxMs, performance.now() - started)
    }
  }
  return renders
}

async function cacheState(url: string, page: string): Promise<string> {
  const res = await fetch(url + page)
  await res.arrayBuffer()
  return `${res.status} ${res.headers.get('x-vitrina-cache') ?? 'none'}`
}

export async function fuzzSurfaces(options: SurfaceOptions): Promise<SurfaceResult> {
  const seed = options.seed ?? Date.now()
  const firstRenders = await prepare(options)
  const names = storedNames(options.mediaDir)
  const derived = names.filter((name) => !isImageSource(name))
  const originals = names.filter((name) => isImageSource(name))

  // The pages without parameters, each rendered and kept before the run.
  for (const page of PLAIN_PAGES) await cacheState(options.url, page)
  const kept = []
  for (const page of PLAIN_PAGES) if ((await cacheState(options.url, page)).endsWith('hit')) kept.push(page)

  const jobs: Job[] = []
  const generated = fc.sample(
    fc.oneof(
      searchText.map((q) => ({ q })),
      filterPath.map((p) => ({ p })),
    ),
    {
      numRuns: options.requests,
      seed,
    },
  )
  for (const item of generated) {
    jobs.push({ path: 'q' in item ? `/poisk?q=${encodeURIComponent(item.q)}` : item.p })
  }
  for (const name of names) {
    const encoded = name.split('/').map(encodeURIComponent).join('/')
    for (const prefix of ['/og-image/', '/feed-image/']) {
      jobs.push({ path: prefix + encoded, derived: !isImageSource(name) })
    }
  }
  for (const encoding of ENCODINGS) {
    for (let i = 0; i < 5; i++) jobs.push({ path: '/feeds/yandex.xml', headers: { 'accept-encoding': encoding } })
  }
  // Shuffled with the seed, so the media and the feed fall among the searches.
  const shuffled = fc.sample(fc.shuffledSubarray(jobs, { minLength: jobs.length, maxLength: jobs.length }), {
    numRuns: 1,
    seed,
  })[0]

  const pool = new Pool(options.url, { connections: options.concurrency ?? 4, pipelining: 1 })
  const statuses: Record<string, number> = {}
  const failures: string[] = []
  const slow: string[] = []
  const derivedServed: string[] = []
  const times: number[] = []
  let next = 0
  const worker = async () => {
    while (next < shuffled.length) {
      const job = shuffled[next++]
      const started = performance.now()
      try {
        const res = await pool.request({ method: 'GET', path: job.path, headers: job.headers })
        const body = Buffer.from(await res.body.arrayBuffer())
        const ms = performance.now() - started
        times.push(ms)
        statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1
        const what = `GET ${job.path.slice(0, 160)}${job.headers ? ` ${JSON.stringify(job.headers)}` : ''}`
        if (res.statusCode >= 500) failures.push(`${what} → ${res.statusCode} ${body.toString().slice(0, 160)}`)
        if (ms > MAX_ANSWER_MS) slow.push(`${what} → ${res.statusCode} in ${ms.toFixed(0)} ms`)
        if (job.derived && res.statusCode !== 404) derivedServed.push(`${what} → ${res.statusCode}`)
      } catch (error) {
        statuses.error = (statuses.error ?? 0) + 1
        failures.push(`GET ${job.path.slice(0, 160)} → ${(error as Error).message}`)
      }
    }
  }
  await Promise.all(Array.from({ length: options.concurrency ?? 4 }, worker))
  await pool.close()

  const evicted = []
  for (const page of kept) {
    const state = await cacheState(options.url, page)
    if (!state.endsWith('hit')) evicted.push(`${page} (${state})`)
  }
  if (kept.length === 0) evicted.push('no page was kept before the run: is the page cache on?')
  times.sort((a, b) => a - b)
  const percentile = (p: number) => times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))] ?? 0
  return {
    sent: shuffled.length,
    statuses,
    failures,
    slow,
    maxMs: times.at(-1) ?? 0,
    p50: percentile(50),
    p99: percentile(99),
    derivedServed,
    evicted,
    mediaNames: { originals: originals.length, derived: derived.length },
    firstRenders,
  }
}

/** The report of one run, and whether it found anything. */
export function reportSurfaces(name: string, result: SurfaceResult, seconds: number): boolean {
  const lines = [
    `fuzz of the new surfaces (${name}): ${result.sent} requests in ${seconds.toFixed(1)} s ` +
      `(search q, price filters, ${result.mediaNames.originals} original and ${result.mediaNames.derived} derived media names ` +
      `under /og-image/ and /feed-image/, the feed with ${ENCODINGS.length} Accept-Encodings)`,
  ]
  for (const [status, count] of Object.entries(result.statuses).sort()) lines.push(`  ${status.padEnd(6)} ${count}`)
  lines.push(
    `  before the run: ${result.firstRenders.count} share images and feed pictures made from the originals, the slowest in ${result.firstRenders.maxMs.toFixed(0)} ms`,
    `  answer times: median ${result.p50.toFixed(1)} ms, 99th percentile ${result.p99.toFixed(1)} ms, slowest ${result.maxMs.toFixed(1)} ms (${result.slow.length} over ${MAX_ANSWER_MS} ms)`,
    `  5xx or dropped: ${result.failures.length}; derived names not 404: ${result.derivedServed.length}; ` +
      `pages without parameters evicted from the page cache: ${result.evicted.length}`,
  )
  for (const failure of result.failures.slice(0, 20)) lines.push(`  FAIL ${failure}`)
  for (const line of result.slow.slice(0, 10)) lines.push(`  SLOW ${line}`)
  for (const line of result.derivedServed.slice(0, 10)) lines.push(`  DERIVED ${line}`)
  for (const line of result.evicted) lines.push(`  EVICTED ${line}`)
  const ok =
    result.failures.length === 0 &&
    result.slow.length === 0 &&
    result.derivedServed.length === 0 &&
    result.evicted.length === 0
  lines.push(ok ? 'no findings' : 'findings above')
  process.stdout.write(`${lines.join('\n')}\n`)
  return ok
}
