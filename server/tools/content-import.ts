// The content import (npm run content -- import site.json): writes an export's records on another
// instance in tree order, a batch of up to 200 records per request (POST /api/batch/structure,
// decision 025; the server writes it in short transactions under the catalogue's import claim,
// decision 029), remapping parent ids, with each image sent once as a file. A record whose URL
// exists there is updated, so importing the same file again changes nothing, and an import that
// stopped midway, run again, finishes. A product's variants go as its record's list `variants`
// (decision 043, "In the content export"), and the owner's choices in «Характеристики» last, once
// the records have made the characteristics (content-characteristics.ts), checked before anything
// is sent. A bad record (a variant's negative price, say) is refused by the site in Russian with
// nothing of its batch written, as a batch is checked whole before it is written.
import sharp from 'sharp'
import { ApiError } from '../../src/api/http-client'
import { toFormData } from '../../src/api/multipart'
import { sniffImageFormat } from '../media/image-store'
import {
  EXPORT_FORMAT,
  LISTS,
  READABLE_VERSIONS,
  VERSION_1_OPTION_SORT,
  imageSlots,
  imageSlotsWithPaths,
  type ContentExport,
  type Record_,
} from './content-format'
import { checkCharacteristics, importCharacteristics } from './content-characteristics'
import { createToolApi, requireToken, UsageError, type ToolConfig } from './tool-config'
import { PATHS } from '../../src/site/paths'

/** How long a batch waits for another import (a price list applied meanwhile) before giving up */
const IMPORT_WAIT = { tries: 60, delayMs: 2000 }

/**
 * Sends a batch; while the server answers 409 import_running (a price list or another import holds
 * the catalogue's claim, decision 029), waits and sends it again.
 */
async function whileAnotherImportRuns<T>(send: () => Promise<T>, log: (line: string) => void): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await send()
    } catch (error) {
      if (!(error instanceof ApiError && error.code === 'import_running') || attempt >= IMPORT_WAIT.tries) throw error
      log(`Another import is writing the catalogue; waiting (${attempt})`)
      await new Promise((resolve) => setTimeout(resolve, IMPORT_WAIT.delayMs))
    }
  }
}

/** Records per batch write and new files per batch (the server takes 200 and 100). */
const BATCH_RECORDS = 200
const BATCH_FILES = 50
/** JSON per batch, well under the server's 8 MB */
const BATCH_JSON_BYTES = 4 * 1024 * 1024

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

/**
 * A record as the batch writes it, its parent and images still the file's: without its id, its lists
 * in order without `sort` (a list the file lacks, as a version 1 file's variants, leaves the target's
 * as it is), the product's fields that its gallery or its variants carry left out.
 */
function recordValues(record: Record_, version: number): Record_ {
  const values: Record_ = structuredClone(record)
  delete values.id
  for (const list of LISTS) {
    if (values[list] === undefined) continue
    let items = values[list] as Record_[]
    if (list === 'properties' && version === 1) items = items.filter((p) => Number(p.sort) < VERSION_1_OPTION_SORT)
    values[list] = items.map(({ sort: _sort, ...item }) => item)
  }
  const product = values.product as Record_ | null | undefined
  // The gallery carries the main image: the product's own copy would only be sent twice.
  if (product && ((values.images as Record_[] | undefined) ?? []).length > 0) delete product.image
  // A product's price, old price and availability follow its variants, written with it.
  if (product && ((values.variants as Record_[] | undefined) ?? []).length > 0) {
    for (const field of ['price', 'oldPrice', 'availability']) delete product[field]
  }
  for (const part of ['index', 'product']) if (values[part] === null) delete values[part]
  for (const [holder, key] of imageSlots(values)) if (holder[key] === undefined) delete holder[key]
  return values
}

export async function importContent(config: ToolConfig, data: ContentExport, log: (line: string) => void = () => {}) {
  const token = requireToken(config)
  if (data?.format !== EXPORT_FORMAT || !Array.isArray(data.structure))
    throw new UsageError('the file is not a content export of this site')
  if (!READABLE_VERSIONS.includes(data.version))
    throw new UsageError(`the file is of format version ${String(data.version)}, newer than this site's tools read`)
  const records = treeOrder(data.structure).map((record) => ({ record, values: recordValues(record, data.version) }))
  // The choices are written last: checked first, so a bad one leaves the site as it was.
  const characteristics = data.characteristics === undefined ? undefined : checkCharacteristics(data.characteristics)
  const { api, http } = await createToolApi(config)
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
  // Media path in the export → the path the target stored it under (each file is sent once).
  const stored = new Map<string, string>()
  let batch: Array<{ record: Record_; values: Record_ }> = []
  let batchFiles = new Set<string>()
  let batchBytes = 0
  const flush = async () => {
    if (batch.length === 0) return
    const send = () =>
      http.request<{ data: { ids: number[]; media: Record<string, string> } }>('POST', PATHS.batchStructure, {
        body: toFormData({ records: batch.map((b) => b.values) }),
        headers: { authorization: `Bearer ${token}` },
      })
    const answer = await whileAnotherImportRuns(send, log)
    const { ids, media } = answer.data
    for (const [i, { record }] of batch.entries()) {
      newIds.set(record.id, ids[i])
      log(`${String(record.urlFull)} → id ${ids[i]}`)
    }
    for (const [i, { values }] of batch.entries()) {
      for (const [holder, key, dotPath] of imageSlotsWithPaths(values, `records.${i}`)) {
        const file = holder[key]
        if (file instanceof File && media[dotPath]) stored.set(sourceOf.get(file)!, media[dotPath])
      }
    }
    batch = []
    batchFiles = new Set()
    batchBytes = 0
  }
  const sourceOf = new Map<File, string>()
  for (const { record, values } of records) {
    // An image already on its way in this batch has no stored path yet: send the batch first.
    const paths = imageSlots(record).map(([holder, key]) => holder[key])
    if (paths.some((path) => typeof path === 'string' && batchFiles.has(path))) await flush()
    if (values.parentId !== null) {
      const position = batch.findIndex((b) => b.record.id === values.parentId)
      const parent = newIds.get(values.parentId)
      if (position !== -1) {
        values.parent = position
        delete values.parentId
      } else if (parent !== undefined) values.parentId = parent
      else
        throw new Error(`Record ${String(record.urlFull)}: its parent ${String(values.parentId)} is not in the export`)
    }
    for (const [holder, key] of imageSlots(values)) {
      const path = holder[key]
      if (typeof path !== 'string' || path === '') continue
      const known = stored.get(path)
      if (known) holder[key] = known
      else {
        const upload = await file(path)
        sourceOf.set(upload, path)
        batchFiles.add(path)
        holder[key] = upload
      }
    }
    batch.push({ record, values })
    batchBytes += JSON.stringify(record).length
    if (batch.length >= BATCH_RECORDS || batchFiles.size >= BATCH_FILES || batchBytes >= BATCH_JSON_BYTES) await flush()
  }
  await flush()
  const existingTypes = new Set(
    // Every existing order type, page by page along `next` (docs/contract.md §3).
    (await api.manyAll<{ type: string }>('orderType', { select: { type: true }, take: 500 }, { token })).map(
      (t) => t.type,
    ),
  )
  for (const orderType of data.orderType ?? []) {
    if (existingTypes.has(String(orderType.type))) continue
    await api.post('orderType', { type: orderType.type, title: orderType.title }, { token })
  }
  const choices = characteristics && (await importCharacteristics(http, token, characteristics, log))
  return { records: newIds.size, characteristics: choices ?? null }
}
