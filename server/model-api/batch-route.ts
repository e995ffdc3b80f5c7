// POST /api/batch/structure (decision 025): many structure records with their parts in one write
// transaction, for the content import. Multipart as every write: `data` is `{ "records": [...] }`,
// files by their dot path (`records.3.images.0.image`). A record is matched by its URL: one that
// exists is updated (its lists replaced), another is created, so an import run twice leaves the
// site as one run does. `parent` names an earlier record of the same batch by its position.
// Bounded: BATCH_LIMITS records and the multipart limits' files per request; the owner's token.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { requireAdmin, type createAdminCheck } from '../admin/access'
import { HttpError } from '../http/http-error'
import { storeUpload } from '../media/store-upload'
import { readMultipartWrite } from '../media/multipart-write'
import { findModel } from './registry'
import { imagePathPatterns, validateWrite } from './write-schema'
import { writeStructureBatch, type BatchRecord } from './writes'
import { variantInputsOf } from './write-variants'

export const BATCH_LIMITS = Object.freeze({ records: 200, dataBytes: 8 * 1024 * 1024 })

function refuse(message: string, field = 'records'): never {
  throw new HttpError(400, message, 'validation_failed', { [field]: message })
}

/**
 * The records of a batch, each checked as a structure create (and its variants' prices and keys:
 * write-variants.ts) before any is written; errors named `records.N.field`.
 */
export function parseBatch(values: Record<string, unknown>): BatchRecord[] {
  const keys = Object.keys(values)
  if (keys.some((k) => k !== 'records')) refuse('Пакет содержит только поле records')
  const records = values.records
  if (!Array.isArray(records) || records.length === 0) refuse('Ожидается непустой список записей')
  if (records.length > BATCH_LIMITS.records) refuse(`Не более ${BATCH_LIMITS.records} записей в одном пакете`)
  const structure = findModel('structure')!
  return records.map((record: unknown, i) => {
    if (typeof record !== 'object' || record === null || Array.isArray(record)) {
      refuse('Запись должна быть объектом', `records.${i}`)
    }
    const { parent, ...rest } = record as Record<string, unknown>
    if (parent !== undefined && (!Number.isInteger(parent) || (parent as number) < 0 || (parent as number) >= i)) {
      refuse('parent — номер одной из предыдущих записей пакета', `records.${i}.parent`)
    }
    if (parent !== undefined && rest.parentId !== undefined) {
      refuse('Укажите parent или parentId, не оба', `records.${i}.parent`)
    }
    try {
      validateWrite(structure, 'create', rest)
      if (Array.isArray(rest.variants)) variantInputsOf(rest.variants as Record<string, unknown>[])
    } catch (error) {
      if (!(error instanceof HttpError)) throw error
      const errors = Object.fromEntries(
        Object.entries(error.errors ?? {}).map(([field, text]) => [`records.${i}.${field}`, text]),
      )
      throw new HttpError(400, `Запись ${i + 1} (${String(rest.urlFull ?? '')}): ${error.message}`, error.code, errors)
    }
    return { values: rest, parent: parent as number | undefined }
  })
}

export async function batchRoute(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  access: ReturnType<typeof createAdminCheck>,
) {
  requireAdmin(await access(request))
  const patterns = imagePathPatterns(findModel('structure')!).map(
    (p) => new RegExp(`^records\\.(0|[1-9]\\d{0,2})\\.${p.source.slice(1)}`),
  )
  const { values, files } = await readMultipartWrite(request, 'structure', patterns, {
    fieldSize: BATCH_LIMITS.dataBytes,
  })
  const records = parseBatch(values)
  for (const file of files) await storeUpload(app.mediaStorage, file.value, file.path, request.log)
  const ids = await writeStructureBatch(app.writeDoor, records)
  reply.header('cache-control', 'no-store')
  return reply
    .code(200)
    .type('application/json; charset=utf-8')
    .send({
      data: { ids, media: Object.fromEntries(files.map((f) => [f.path, f.value.relativePath])) },
    })
}
