// npm run content -- export > site.json
// npm run content -- import site.json
// npm run content -- media-sync          (MEDIA_DIR into the bucket of MEDIA_STORAGE=s3)
// npm run content -- import-prices price.xlsx [--apply]   (a price list: preview, then write)
// Moves the whole catalogue (structure records with their parts, order types and every image)
// between instances through the HTTP API: export reads it with the model API and embeds the
// images as base64; import creates the records on the other instance in tree order, remapping
// parent ids, with the images sent as files.
import fs from 'node:fs/promises'
import sharp from 'sharp'
import { readConfig } from '../config'
import { sniffImageFormat } from '../media/image-store'
import { syncMediaFolder } from '../media/media-sync'
import { S3Storage } from '../media/storage/s3-storage'
import { importPricesMain } from './import-prices'
import {
  createToolApi,
  readToolConfig,
  requireToken,
  runTool,
  UsageError,
  userPath,
  type ToolConfig,
} from './tool-config'

const USAGE = [
  'usage: npm run content -- export > site.json',
  '       npm run content -- import site.json',
  '       npm run content -- media-sync   (copies MEDIA_DIR into the bucket; the env of npm start)',
  '       npm run content -- import-prices price.csv|price.xlsx [--apply]   (prints the preview; --apply writes)',
  '(env: VITRINA_URL, default http://localhost:3000; ADMIN_TOKEN, needed for import and for unpublished records)',
].join('\n')

const PAGE = 500
export const EXPORT_FORMAT = 'vitrina-content'

type Record_ = Record<string, unknown>

export interface ContentExport {
  readonly format: typeof EXPORT_FORMAT
  readonly version: 1
  readonly exportedAt: string
  readonly structure: Record_[]
  readonly orderType: Record_[]
  /** Media path → the file, base64 */
  readonly images: Record<string, { readonly contentType: string; readonly base64: string }>
}

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
  index: { select: { logo: true, tel: true, telText: true, description: true, copyright: true } },
  product: { select: { image: true, article: true, price: true, description: true } },
  sliderItems: { select: { image: true, title: true, sort: true } },
  advantages: { select: { image: true, title: true, description: true, sort: true } },
}

/** Image-holding paths of one exported record, as [object, key] pairs. */
function imageSlots(record: Record_): Array<[Record_, string]> {
  const slots: Array<[Record_, string]> = [[record, 'metaImage']]
  const part = (name: string) => record[name] as Record_ | null | undefined
  if (part('index')) slots.push([part('index')!, 'logo'])
  if (part('product')) slots.push([part('product')!, 'image'])
  for (const item of (record.sliderItems as Record_[] | undefined) ?? []) slots.push([item, 'image'])
  for (const item of (record.advantages as Record_[] | undefined) ?? []) slots.push([item, 'image'])
  return slots
}

export async function exportContent(config: ToolConfig): Promise<ContentExport> {
  const tool = await createToolApi(config)
  const { api } = tool
  const fetchBytes = (path: string) => tool.fetchBytes(path)
  const token = config.adminToken ?? undefined
  const structure: Record_[] = []
  for (let skip = 0; ; skip += PAGE) {
    const page = await api.many(
      'structure',
      { select: STRUCTURE_SELECT, orderBy: { id: 'asc' }, take: PAGE, skip },
      { token },
    )
    structure.push(...page)
    if (page.length < PAGE) break
  }
  const orderType = await api.many(
    'orderType',
    { select: { type: true, title: true }, orderBy: { id: 'asc' }, take: PAGE },
    { token },
  )
  const images: Record<string, { contentType: string; base64: string }> = {}
  for (const record of structure) {
    for (const [holder, key] of imageSlots(record)) {
      const path = holder[key]
      if (typeof path !== 'string' || path === '' || Object.hasOwn(images, path)) continue
      const { bytes, contentType } = await fetchBytes(`/media/${path.split('/').map(encodeURIComponent).join('/')}`)
      images[path] = { contentType, base64: bytes.toString('base64') }
    }
  }
  return { format: EXPORT_FORMAT, version: 1, exportedAt: new Date().toISOString(), structure, orderType, images }
}

/**
 * Parents before children; among the records that are ready, the smallest old id first, so an
 * import into an empty database gives the records the ids they had.
 */
export function treeOrder(records: readonly Record_[]): Record_[] {
  const ids = new Set(records.map((r) => r.id))
  const done = new Set<unknown>()
  const pending = [...records].sort((a, b) => Number(a.id) - Number(b.id))
  const ordered: Record_[] = []
  while (pending.length > 0) {
    const index = pending.findIndex((r) => r.parentId === null || !ids.has(r.parentId) || done.has(r.parentId))
    if (index === -1) throw new Error('The export holds a cycle of parent ids')
    const [record] = pending.splice(index, 1)
    done.add(record.id)
    ordered.push(record)
  }
  return ordered
}

/** The write API takes JPEG, PNG, WebP and AVIF only: anything else (the demo SVGs) becomes PNG. */
async function toUploadable(bytes: Buffer, name: string): Promise<File> {
  if (sniffImageFormat(bytes)) return new File([new Uint8Array(bytes)], name)
  const png = await sharp(bytes, { limitInputPixels: 40_000_000 }).png().toBuffer()
  return new File([new Uint8Array(png)], name.replace(/\.[^.]*$/, '') + '.png')
}

export async function importContent(config: ToolConfig, data: ContentExport, log: (line: string) => void = () => {}) {
  const token = requireToken(config)
  if (data?.format !== EXPORT_FORMAT || !Array.isArray(data.structure))
    throw new UsageError('the file is not a content export of this site')
  const { api } = await createToolApi(config)
  const files = new Map<string, File>()
  const file = async (path: string): Promise<File> => {
    let found = files.get(path)
    if (!found) {
      const image = Object.hasOwn(data.images, path) ? data.images[path] : undefined
      if (!image) throw new Error(`The export has no bytes for image "${path}"`)
      found = await toUploadable(Buffer.from(image.base64, 'base64'), path.split('/').pop() ?? 'image')
      files.set(path, found)
    }
    return found
  }
  const newIds = new Map<unknown, number>()
  for (const record of treeOrder(data.structure)) {
    const values: Record_ = structuredClone(record)
    delete values.id
    if (values.parentId !== null) {
      const parent = newIds.get(values.parentId)
      if (parent === undefined)
        throw new Error(`Record ${String(record.urlFull)}: its parent ${String(values.parentId)} is not in the export`)
      values.parentId = parent
    }
    for (const list of ['sliderItems', 'advantages']) {
      values[list] = ((values[list] as Record_[] | undefined) ?? []).map(({ sort: _sort, ...item }) => item)
    }
    for (const [holder, key] of imageSlots(values)) {
      const path = holder[key]
      if (typeof path === 'string' && path !== '') holder[key] = await file(path)
      else if (holder[key] === undefined) delete holder[key]
    }
    for (const part of ['index', 'product']) if (values[part] === null) delete values[part]
    const created = await api.post<{ id: number }>('structure', values, { token })
    newIds.set(record.id, created.id)
    log(`${String(record.urlFull)} → id ${created.id}`)
  }
  for (const orderType of data.orderType ?? []) {
    await api.post('orderType', { type: orderType.type, title: orderType.title }, { token })
  }
  return { records: newIds.size }
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
    const data = await exportContent(config)
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
