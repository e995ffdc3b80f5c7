// The read-query family of `npm run fuzz` (issue #21 item 4): generated queries that nest the real
// models' relations up to one level past the allowed depth, walking back along the path (the
// loops the API refuses) as often as forward, with takes, skips, filters and orders, as a visitor
// and as the owner, against a catalogue with a section of 120 products. Every answer is timed and
// measured: a 5xx, a dropped connection, an answer over 1 MB or one slower than 200 ms is a finding.
import fc from 'fast-check'
import { Pool } from 'undici'
import { QUERY_LIMITS } from '../../server/model-api/query-tree'
import { findModel } from '../../server/model-api/registry'
import { stringifyQuery } from '../../src/api/query-string'

export const ANSWER_MAX_BYTES = 1024 * 1024
export const ANSWER_MAX_MS = 200

const MODELS = ['structure', 'product', 'index', 'sliderItems', 'advantages', 'orderType'] as const
const SECTION_URL = '/structure/fuzz-section/'
const SECTION_PRODUCTS = 120

const count = fc.oneof(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 600 }))
const filter = fc.oneof(
  fc.constant(undefined),
  fc.record({ typeId: fc.constantFrom('section', 'product', 'index', 'page') }),
  fc.record({ parentId: fc.oneof(fc.integer({ min: 1, max: 40 }), fc.constant(null)) }),
  fc.record({ id: fc.record({ lte: fc.integer({ min: 1, max: 200 }) }) }),
)

/** A select tree on `model`: some of its fields, and relations (any of them, back ones included). */
function selectOf(model: string, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const def = findModel(model)!
  const names = [...def.fields.keys()]
  const fields = fc.subarray(names, { minLength: 1, maxLength: Math.min(4, names.length) })
  const relations = [...def.relations.values()]
  // One level deeper than the API allows: the parser must refuse it, not the database.
  if (depth > QUERY_LIMITS.maxRelationDepth + 1 || relations.length === 0) {
    return fields.map((names) => Object.fromEntries(names.map((n) => [n, true])))
  }
  const nested = fc.subarray(relations, { maxLength: Math.min(3, relations.length) }).chain((chosen) =>
    fc
      .tuple(
        ...chosen.map((relation) =>
          // Mostly a nested select, so paths reach the depth limit and past it.
          fc.oneof(
            { arbitrary: fc.constant(true), weight: 1 },
            {
              weight: 3,
              arbitrary: fc.record(
                {
                  select: selectOf(relation.model, depth + 1),
                  ...(relation.kind === 'many' ? { take: count, skip: fc.integer({ min: 0, max: 5 }) } : {}),
                },
                { requiredKeys: ['select'] },
              ),
            },
          ),
        ),
      )
      .map((values) => Object.fromEntries(chosen.map((relation, i) => [relation.name, values[i]]))),
  )
  return fc
    .tuple(fields, nested)
    .map(([names, rels]) => ({ ...Object.fromEntries(names.map((n) => [n, true])), ...rels }))
}

/** A straight path of 1 to 5 relations, each any relation of the model reached: deep, often looping. */
function chainOf(model: string, length: number): fc.Arbitrary<Record<string, unknown>> {
  const def = findModel(model)!
  const relations = [...def.relations.values()]
  if (length === 0 || relations.length === 0) return fc.constant({ [def.key]: true })
  return fc
    .constantFrom(...relations)
    .chain((relation) => chainOf(relation.model, length - 1).map((select) => ({ [relation.name]: { select } })))
}

export interface QueryJob {
  readonly path: string
  readonly admin: boolean
}

/** One read of the family: a model, a kind of read, a query with nested relations, who asks. */
export const relationQueryJob: fc.Arbitrary<QueryJob> = fc
  .constantFrom(...MODELS)
  .chain((model) =>
    fc.record({
      model: fc.constant(model),
      kind: fc.constantFrom('', 'many/', 'provider/'),
      select: fc.oneof(
        selectOf(model, 1),
        fc.integer({ min: 1, max: QUERY_LIMITS.maxRelationDepth + 1 }).chain((length) => chainOf(model, length)),
      ),
      where: model === 'structure' ? filter : fc.constant(undefined),
      take: fc.option(count, { nil: undefined }),
      admin: fc.boolean(),
    }),
  )
  .map(({ model, kind, select, where, take, admin }) => {
    const query = { select, ...(where ? { where } : {}), ...(take !== undefined ? { take } : {}) }
    return { path: `/api/${kind}${model}?${stringifyQuery({ query })}`, admin }
  })

/** Adds a section of 120 products (through the write API) unless an earlier run did. */
export async function seedLargeSection(url: string, adminToken: string): Promise<void> {
  const auth = { authorization: `Bearer ${adminToken}` }
  const read = async (query: unknown) => {
    const res = await fetch(`${url}/api/many/structure?${stringifyQuery({ query })}`, { headers: auth })
    return ((await res.json()) as { data: Array<{ id: number }> }).data
  }
  const write = async (data: Record<string, unknown>) => {
    const form = new FormData()
    form.append('data', JSON.stringify(data))
    const res = await fetch(`${url}/api/structure`, { method: 'POST', headers: auth, body: form })
    if (!res.ok) throw new Error(`seeding answered ${res.status}: ${await res.text()}`)
    return ((await res.json()) as { data: { id: number } }).data.id
  }
  if ((await read({ where: { urlFull: SECTION_URL }, select: { id: true } })).length > 0) return
  const [root] = await read({ where: { urlFull: '/structure/' }, select: { id: true } })
  const section = await write({
    parentId: root?.id ?? null,
    typeId: 'section',
    title: 'Раздел фаззера',
    urlFull: SECTION_URL,
  })
  for (let i = 0; i < SECTION_PRODUCTS; i++) {
    await write({
      parentId: section,
      typeId: 'product',
      title: `Товар фаззера ${i + 1}`,
      urlFull: `${SECTION_URL}t${i + 1}`,
      sort: i,
      product: { article: `F-${i + 1}`, price: 1000 + i, description: 'Описание товара. '.repeat(20) },
    })
  }
}

const REFUSALS: Array<[string, RegExp]> = [
  ['way back', /ведёт обратно/],
  ['too deep', /глубокая вложенность связей/],
  ['too many rows', /больше \d+ записей/],
  ['too many bytes', /больше \d+ МБ/],
  ['take out of range', /должен быть целым числом от/],
]

function refusalOf(body: string): string {
  const message = (JSON.parse(body) as { error?: { message?: string } }).error?.message ?? ''
  return REFUSALS.find(([, pattern]) => pattern.test(message))?.[0] ?? 'other'
}

export interface QueryFuzzResult {
  readonly sent: number
  readonly statuses: Record<string, number>
  /** 5xx and dropped connections */
  readonly failures: string[]
  readonly oversized: string[]
  readonly slow: string[]
  /** The 400s by what they refused: a way back, the depth, the answer's rows or bytes, anything else */
  readonly refusals: Record<string, number>
  readonly largestBytes: number
  /** Milliseconds: median, 99th percentile, slowest */
  readonly ms: { readonly p50: number; readonly p99: number; readonly max: number }
}

/** Sends `queries` reads of the family, `concurrency` at a time (few: each answer is timed). */
export async function runQueryFuzz(options: {
  url: string
  queries: number
  adminToken: string
  seed?: number
  concurrency?: number
}): Promise<QueryFuzzResult> {
  const jobs = fc.sample(relationQueryJob, { numRuns: options.queries, seed: options.seed ?? Date.now() })
  const concurrency = options.concurrency ?? 2
  const pool = new Pool(options.url, { connections: concurrency, pipelining: 1 })
  const statuses: Record<string, number> = {}
  const failures: string[] = []
  const oversized: string[] = []
  const slow: string[] = []
  const refusals: Record<string, number> = {}
  const times: number[] = []
  let largestBytes = 0
  let next = 0
  const worker = async () => {
    while (next < jobs.length) {
      const job = jobs[next++]
      const headers = job.admin ? { authorization: `Bearer ${options.adminToken}` } : {}
      const started = performance.now()
      try {
        const res = await pool.request({ method: 'GET', path: job.path, headers })
        const body = Buffer.from(await res.body.arrayBuffer())
        const bytes = body.byteLength
        const ms = performance.now() - started
        if (res.statusCode === 400) {
          const reason = refusalOf(body.toString())
          refusals[reason] = (refusals[reason] ?? 0) + 1
        }
        times.push(ms)
        largestBytes = Math.max(largestBytes, bytes)
        statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1
        const what = `${job.admin ? 'admin ' : ''}GET ${decodeURIComponent(job.path).slice(0, 300)}`
        if (res.statusCode >= 500) failures.push(`${what} → ${res.statusCode}`)
        if (bytes > ANSWER_MAX_BYTES) oversized.push(`${what} → ${bytes} bytes`)
        if (ms > ANSWER_MAX_MS) slow.push(`${what} → ${ms.toFixed(0)} ms`)
      } catch (error) {
        statuses.error = (statuses.error ?? 0) + 1
        failures.push(`GET ${job.path.slice(0, 200)} → ${(error as Error).message}`)
      }
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker))
  await pool.close()
  times.sort((a, b) => a - b)
  const at = (q: number) => Math.round(times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0)
  return {
    sent: jobs.length,
    statuses,
    failures,
    oversized,
    slow,
    refusals,
    largestBytes,
    ms: { p50: at(0.5), p99: at(0.99), max: Math.round(times.at(-1) ?? 0) },
  }
}

/** Seeds, runs and prints the family against one server; whether it found nothing. */
export async function fuzzQueryFamily(label: string, url: string, adminToken: string, queries: number) {
  await seedLargeSection(url, adminToken)
  const result = await runQueryFuzz({ url, queries, adminToken })
  const out = (line: string) => process.stdout.write(`${line}\n`)
  out(`read queries with relations, ${label}: ${result.sent} sent`)
  for (const [status, n] of Object.entries(result.statuses).sort()) out(`  ${status.padEnd(6)} ${n}`)
  out(`  400 by reason: ${JSON.stringify(result.refusals)}`)
  out(
    `  largest answer ${result.largestBytes} bytes; ms p50 ${result.ms.p50}, p99 ${result.ms.p99}, max ${result.ms.max}`,
  )
  out(`  over ${ANSWER_MAX_BYTES} bytes: ${result.oversized.length}; over ${ANSWER_MAX_MS} ms: ${result.slow.length}`)
  for (const finding of [...result.failures, ...result.oversized, ...result.slow].slice(0, 20)) out(`  FAIL ${finding}`)
  return result.failures.length + result.oversized.length + result.slow.length === 0
}
