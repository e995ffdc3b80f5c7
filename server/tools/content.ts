// npm run content -- export > site.json
// npm run content -- import site.json
// npm run content -- media-sync          (MEDIA_DIR into the bucket of MEDIA_STORAGE=s3)
// npm run content -- import-prices price.xlsx [--apply]   (a price list: preview, then write)
// Moves the whole catalogue (structure records with their parts and a product's variants, order
// types, the owner's choices in «Характеристики» and every image) between instances through the
// HTTP API: export reads it with the model API (the choices with the back office's route,
// content-characteristics.ts) and embeds the images as base64; import (content-import.ts) writes
// them on the other instance in batches.
import fs from 'node:fs/promises'
import { readConfig } from '../config/config'
import { syncMediaFolder } from '../media/media-sync'
import { S3Storage } from '../media/storage/s3-storage'
import { importPricesMain } from './import-prices'
import { importContent } from './content-import'
import { EXPORT_FORMAT, EXPORT_VERSION, imageSlots, type ContentExport, type Record_ } from './content-format'
import { exportCharacteristics } from './content-characteristics'
import { createToolApi, readToolConfig, runTool, UsageError, userPath, type ToolConfig } from './tool-config'
import { ApiError } from '../../src/api/http-client'
import type { ModelApi } from '../../src/api/model-api'
import { PATHS } from '../../src/site/paths'
import { INDEX_PART_SELECT, PRODUCT_PART_FIELDS } from '../../src/site/record-parts'

const USAGE = [
  'usage: npm run content -- export > site.json',
  '       npm run content -- import site.json',
  '       npm run content -- media-sync   (copies MEDIA_DIR into the bucket; the env of npm start)',
  '       npm run content -- import-prices price.csv|price.xlsx [--apply]   (prints the preview; --apply writes)',
  '(env: VITRINA_URL, default http://localhost:3000; ADMIN_TOKEN, needed for import and for unpublished records)',
].join('\n')

const PAGE = 500

const STRUCTURE_FIELDS = [
  'id',
  'parentId',
  'typeId',
  'title',
  'urlFull',
  'sort',
  'published',
  'status',
  'content',
  'metaTitle',
  'metaDescription',
  'metaImage',
  'metaRobots',
  'metaJsonLd',
] as const

const STRUCTURE_SELECT = {
  ...Object.fromEntries(STRUCTURE_FIELDS.map((f) => [f, true])),
  index: INDEX_PART_SELECT,
  product: { select: { image: true, ...PRODUCT_PART_FIELDS } },
  sliderItems: { select: { image: true, title: true, sort: true } },
  advantages: { select: { image: true, title: true, description: true, sort: true } },
  images: { select: { image: true, alt: true, sort: true } },
  properties: { select: { groupName: true, name: true, value: true, unit: true, sort: true } },
  // In their order; a variant is found again on the target by its артикул, else its title.
  variants: {
    select: {
      title: true,
      article: true,
      price: true,
      oldPrice: true,
      availability: true,
      image: true,
      options: { select: { name: true, value: true, unit: true } },
    },
  },
}

/**
 * Every record with its parts, page by page along the answers' `next` (docs/contract.md §3). A page
 * whose answer would pass the API's bound on rows (docs/decisions/024-public-reads.md: products with
 * many variants, options or characteristics) is asked for again half as long.
 */
export async function everyRecord(api: ModelApi, token: string | undefined, take = PAGE): Promise<Record_[]> {
  const records: Record_[] = []
  let skip = 0
  for (;;) {
    try {
      const query = { select: STRUCTURE_SELECT, orderBy: { id: 'asc' }, take, skip } as const
      const { data, next } = await api.many<Record_>('structure', query, { token })
      records.push(...data)
      if (!next || data.length === 0) return records
      skip = next.skip
    } catch (error) {
      if (!(error instanceof ApiError && error.code === 'answer_too_large') || take === 1) throw error
      take = Math.ceil(take / 2)
    }
  }
}

/**
 * The site's content as the import takes it. Without the admin token only the public records are
 * read, and the owner's choices in «Характеристики» not at all (`log` says so).
 */
export async function exportContent(
  config: ToolConfig,
  log: (line: string) => void = () => {},
): Promise<ContentExport> {
  const tool = await createToolApi(config)
  const { api } = tool
  const fetchBytes = (path: string) => tool.fetchBytes(path)
  const token = config.adminToken ?? undefined
  const structure = await everyRecord(api, token)
  const orderType = await api.manyAll<Record_>(
    'orderType',
    { select: { type: true, title: true }, orderBy: { id: 'asc' }, take: PAGE },
    { token },
  )
  const images: Record<string, { contentType: string; base64: string }> = {}
  for (const record of structure) {
    for (const [holder, key] of imageSlots(record)) {
      const path = holder[key]
      if (typeof path !== 'string' || path === '' || Object.hasOwn(images, path)) continue
      const { bytes, contentType } = await fetchBytes(
        `${PATHS.media}${path.split('/').map(encodeURIComponent).join('/')}`,
      )
      images[path] = { contentType, base64: bytes.toString('base64') }
    }
  }
  if (token === undefined) log("No ADMIN_TOKEN: the characteristics' choices are not exported")
  const characteristics = token === undefined ? undefined : await exportCharacteristics(tool.http, token)
  return {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exportedAt: new Date().toISOString(),
    structure,
    orderType,
    images,
    ...(characteristics ? { characteristics } : {}),
  }
}

/** Copies MEDIA_DIR into the bucket that MEDIA_STORAGE=s3 names (the same environment as npm start). */
export async function mediaSyncMain(env: NodeJS.ProcessEnv, out: NodeJS.WritableStream): Promise<void> {
  const config = readConfig(env)
  if (config.mediaStorage.kind !== 's3') {
    throw new UsageError('media-sync copies MEDIA_DIR into a bucket: set MEDIA_STORAGE=s3 and the S3_* settings first')
  }
  const bucket = new S3Storage(config.mediaStorage)
  const result = await syncMediaFolder(config.mediaDir, bucket, (line) => out.write(`${line}\n`))
  out.write(
    `${config.mediaDir} → ${bucket.location}: ${result.copied} copied, ${result.present} already there, ${result.skipped} skipped (not media)\n`,
  )
  if (result.failed.length > 0) {
    throw new Error(`${result.failed.length} files could not be read, e.g. ${result.failed[0]}: fix them and run again`)
  }
}

export async function contentMain(
  argv: string[],
  config = readToolConfig(),
  out: NodeJS.WritableStream = process.stdout,
) {
  const [command, file, ...rest] = argv
  if (command === 'media-sync' && file === undefined) return mediaSyncMain(process.env, out)
  if (command === 'import-prices') return importPricesMain(config, argv.slice(1), out)
  if (command === 'export' && file === undefined) {
    const data = await exportContent(config, (line) => process.stderr.write(`${line}\n`))
    out.write(`${JSON.stringify(data, null, 2)}\n`)
    return
  }
  if (command === 'import' && file !== undefined && rest.length === 0) {
    let data: ContentExport
    try {
      data = JSON.parse(await fs.readFile(userPath(file), 'utf8')) as ContentExport
    } catch (error) {
      throw new UsageError(`cannot read ${file}: ${(error as Error).message}`)
    }
    const result = await importContent(config, data, (line) => process.stderr.write(`${line}\n`))
    process.stderr.write(`Imported ${result.records} records\n`)
    return
  }
  throw new UsageError(USAGE)
}

if (import.meta.url === `file://${process.argv[1]}`) runTool((argv) => contentMain(argv))
