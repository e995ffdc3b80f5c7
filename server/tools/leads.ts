// npm run leads -- export --format csv > leads.csv
// Reads every lead through the API with the admin token and writes a CSV for Excel to stdout.
import { toCsv } from './csv'
import { createToolApi, readToolConfig, requireToken, runTool, UsageError, type ToolConfig } from './tool-config'

const USAGE = 'usage: npm run leads -- export --format csv > leads.csv   (env: VITRINA_URL, ADMIN_TOKEN)'
const PAGE = 500

export const LEAD_COLUMNS = [
  ['id', 'Номер'],
  ['createdAt', 'Дата'],
  ['username', 'Имя'],
  ['phone', 'Телефон'],
  ['email', 'E-mail'],
] as const

export async function exportLeads(config: ToolConfig): Promise<Array<Record<string, unknown>>> {
  const token = requireToken(config)
  const { api } = await createToolApi(config)
  const rows: Array<Record<string, unknown>> = []
  for (let skip = 0; ; skip += PAGE) {
    const page = await api.many('feedback', { orderBy: { id: 'asc' }, take: PAGE, skip }, { token })
    rows.push(...page)
    if (page.length < PAGE) return rows
  }
}

export async function leadsMain(argv: string[], config = readToolConfig(), out: NodeJS.WritableStream = process.stdout) {
  const [command, ...rest] = argv
  if (command !== 'export') throw new UsageError(USAGE)
  let format = 'csv'
  for (let i = 0; i < rest.length; i++) {
    if (rest[i] === '--format' && rest[i + 1] !== undefined) format = rest[++i]
    else if (rest[i].startsWith('--format=')) format = rest[i].slice('--format='.length)
    else throw new UsageError(`unknown argument "${rest[i]}"\n${USAGE}`)
  }
  if (format !== 'csv') throw new UsageError(`unsupported format "${format}": only csv\n${USAGE}`)
  const rows = await exportLeads(config)
  out.write(toCsv(LEAD_COLUMNS, rows))
}

if (import.meta.url === `file://${process.argv[1]}`) runTool((argv) => leadsMain(argv))
