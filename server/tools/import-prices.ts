// npm run content -- import-prices <file> [--apply]
// Sends a price list (CSV or XLSX) to the running site's back office API and prints its preview:
// how many products would be updated, created and left alone, and every refused row with its
// number and reason. With --apply it then confirms that very preview, and the site writes it.
import fs from 'node:fs/promises'
import path from 'node:path'
import * as undici from 'undici'
import { requireToken, UsageError, userPath, type ToolConfig } from './tool-config'

interface Refused {
  readonly number: number
  readonly article: string | null
  readonly reason: string
}

interface Preview {
  readonly rows: number
  readonly updated: number
  readonly created: number
  readonly unchanged: number
  readonly refused: readonly Refused[]
  /** The models' variants (decision 043); absent from an older site */
  readonly variants?: { readonly created: number; readonly updated: number; readonly removed: number }
  readonly confirm: string
}

async function send(config: ToolConfig, route: 'preview' | 'apply', name: string, bytes: Buffer, confirm?: string) {
  const form = new undici.FormData()
  if (confirm) form.append('confirm', confirm)
  form.append('file', new Blob([new Uint8Array(bytes)]), name)
  const response = await undici.fetch(`${config.baseUrl}/api/admin/price-list/${route}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${requireToken(config)}` },
    body: form,
    signal: AbortSignal.timeout(120_000),
  })
  const body = (await response.json().catch(() => null)) as { data?: unknown; error?: { message?: string } } | null
  if (!response.ok) throw new Error(`${route} answered ${response.status}: ${body?.error?.message ?? 'no details'}`)
  return body?.data
}

export async function importPricesMain(
  config: ToolConfig,
  args: readonly string[],
  out: NodeJS.WritableStream,
): Promise<void> {
  const apply = args.includes('--apply')
  const files = args.filter((a) => a !== '--apply')
  if (files.length !== 1 || files[0].startsWith('--')) {
    throw new UsageError('usage: npm run content -- import-prices <file.csv|file.xlsx> [--apply]')
  }
  let bytes: Buffer
  try {
    bytes = await fs.readFile(userPath(files[0]))
  } catch (error) {
    throw new UsageError(`cannot read ${files[0]}: ${(error as Error).message}`)
  }
  const name = path.basename(files[0])
  const preview = (await send(config, 'preview', name, bytes)) as Preview
  out.write(
    `${preview.rows} rows: ${preview.updated} to update, ${preview.created} to create, ${preview.unchanged} unchanged, ${preview.refused.length} refused\n`,
  )
  const variants = preview.variants
  if (variants && variants.created + variants.updated + variants.removed > 0) {
    out.write(`Variants: ${variants.created} to create, ${variants.updated} to update, ${variants.removed} to remove\n`)
  }
  for (const row of preview.refused)
    out.write(`  row ${row.number}${row.article ? ` (${row.article})` : ''}: ${row.reason}\n`)
  if (!apply) {
    out.write('Nothing written. Run again with --apply to write the accepted rows.\n')
    return
  }
  const result = (await send(config, 'apply', name, bytes, preview.confirm)) as { changed: number }
  out.write(`Applied: ${result.changed} products changed or created.\n`)
}
