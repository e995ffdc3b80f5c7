// npm run leads -- export --format csv > leads.csv     every lead as a CSV for Excel
// npm run leads -- deliveries                          deliveries not sent yet, and dead ones
// npm run leads -- retry <id…|--dead>                  put deliveries back in the queue
// Talks to the running site through its API with the admin token (VITRINA_URL, ADMIN_TOKEN).
import { LEAD_FIELDS, LEAD_LINES_SELECT, leadsCsvChunks } from '../leads/inbox/lead-csv'
import { createToolApi, readToolConfig, requireToken, runTool, UsageError, type ToolConfig } from './tool-config'
import { PATHS } from '../../src/site/paths'

const USAGE = [
  'usage: npm run leads -- export --format csv > leads.csv',
  '       npm run leads -- deliveries',
  '       npm run leads -- retry <delivery id…> | --dead',
  '(env: VITRINA_URL, ADMIN_TOKEN)',
].join('\n')
const PAGE = 500
/** Rows the deliveries table prints */
const MAX_DELIVERIES = 10_000

/**
 * Every lead that is not spam, oldest first, a page at a time: keyset on id through `many` (a
 * `skip` would stop at the API's 100,000 and cost more with every page), so memory holds one page
 * whatever the number of leads. `pageSize` is for the tests.
 */
export async function* exportLeadPages(
  config: ToolConfig,
  pageSize = PAGE,
): AsyncGenerator<Array<Record<string, unknown>>> {
  const token = requireToken(config)
  const { api } = await createToolApi(config)
  const select = { ...Object.fromEntries(LEAD_FIELDS.map((field) => [field, true])), ...LEAD_LINES_SELECT }
  let after = 0
  for (;;) {
    const page = await api.many<Record<string, unknown>>(
      'feedback',
      { select, where: { id: { gt: after } }, orderBy: { id: 'asc' }, take: pageSize },
      { token },
    )
    if (page.data.length > 0) yield page.data
    // `next` says a page stopped at its `take`: the rest follow the last id read.
    if (!page.next || page.data.length === 0) return
    after = Number(page.data[page.data.length - 1].id)
  }
}

interface DeliveryItem {
  id: number
  feedbackId: number
  channel: string
  status: string
  attempts: number
  nextAttemptAt: string
  lastError: string | null
}

/** The undelivered deliveries as a fixed-width table, one per line. */
export function deliveriesTable(items: readonly DeliveryItem[]): string {
  if (items.length === 0) return 'No pending or dead deliveries.\n'
  const header = ['id', 'lead', 'channel', 'status', 'attempts', 'next attempt (UTC)', 'last error']
  const rows = items.map((item) => [
    String(item.id),
    String(item.feedbackId),
    item.channel,
    item.status,
    String(item.attempts),
    item.status === 'pending' ? item.nextAttemptAt.slice(0, 19).replace('T', ' ') : '-',
    (item.lastError ?? '').replace(/\s+/g, ' '),
  ])
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i].length)))
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i])))
      .join('  ')
      .trimEnd()
  return `${[line(header), ...rows.map(line)].join('\n')}\n`
}

async function deliveries(config: ToolConfig, args: string[], out: NodeJS.WritableStream) {
  if (args.length > 0) throw new UsageError(`unknown argument "${args[0]}"\n${USAGE}`)
  const token = requireToken(config)
  const { http } = await createToolApi(config)
  // Every page, along the answers' `next` (at most MAX_DELIVERIES rows, said when there are more).
  const items: DeliveryItem[] = []
  let after: number | undefined
  for (;;) {
    const body = await http.request<{ data: DeliveryItem[]; next: { after: number } | null }>('GET', PATHS.deliveries, {
      headers: { authorization: `Bearer ${token}` },
      query: { after },
    })
    items.push(...body.data)
    if (!body.next || body.data.length === 0) break
    if (items.length >= MAX_DELIVERIES) {
      out.write(deliveriesTable(items))
      out.write(`More than ${MAX_DELIVERIES} deliveries: showing the oldest ${items.length}.\n`)
      return
    }
    after = body.next.after
  }
  out.write(deliveriesTable(items))
}

async function retry(config: ToolConfig, args: string[], out: NodeJS.WritableStream) {
  const dead = args.length === 1 && args[0] === '--dead'
  if (!dead && (args.length === 0 || !args.every((arg) => /^[1-9]\d{0,9}$/.test(arg)))) {
    throw new UsageError(`retry takes delivery ids or --dead\n${USAGE}`)
  }
  const token = requireToken(config)
  const { http } = await createToolApi(config)
  const body = await http.request<{ data: { queued: number[] } }>('POST', PATHS.deliveriesRetry, {
    headers: { authorization: `Bearer ${token}` },
    json: dead ? { dead: true } : { ids: args.map(Number) },
  })
  const { queued } = body.data
  out.write(queued.length === 0 ? 'Nothing to retry.\n' : `Queued again: ${queued.join(', ')}\n`)
}

export async function leadsMain(
  argv: string[],
  config = readToolConfig(),
  out: NodeJS.WritableStream = process.stdout,
  options: { pageSize?: number } = {},
) {
  const [command, ...rest] = argv
  if (command === 'deliveries') return deliveries(config, rest, out)
  if (command === 'retry') return retry(config, rest, out)
  if (command !== 'export') throw new UsageError(USAGE)
  let format = 'csv'
  for (let i = 0; i < rest.length; i++) {
    if (rest[i] === '--format' && rest[i + 1] !== undefined) format = rest[++i]
    else if (rest[i].startsWith('--format=')) format = rest[i].slice('--format='.length)
    else throw new UsageError(`unknown argument "${rest[i]}"\n${USAGE}`)
  }
  if (format !== 'csv') throw new UsageError(`unsupported format "${format}": only csv\n${USAGE}`)
  requireToken(config) // before the file's first line
  // Written as it is read: the same bytes as the back office's «Скачать CSV».
  for await (const chunk of leadsCsvChunks(exportLeadPages(config, options.pageSize), config.timeZone)) {
    if (!out.write(chunk)) await new Promise((resolve) => out.once('drain', resolve))
  }
}

if (import.meta.url === `file://${process.argv[1]}`) runTool((argv) => leadsMain(argv))
