// The price list in the back office (session or admin token), under /api/admin:
//   POST /price-list/preview   multipart: file → what would change, and the `confirm` code
//   POST /price-list/apply     multipart: file + confirm → written in one transaction
// Encapsulated: its multipart parser and limits stay inside it.
import multipart from '@fastify/multipart'
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify'
import type { Config } from '../../config/config'
import { createAdminCheck, requireAdmin } from '../../admin/access'
import { createErrorHandler } from '../../http/errors'
import { HttpError } from '../../http/http-error'
import { applyPriceList, previewPriceList } from './price-import'
import { PRICE_LIST_LIMITS } from './price-list-file'
import { routeOf } from '../../http/route-path'
import { ADMIN_API_PATHS } from '../../../src/site/paths'

function multipartError(error: FastifyError): HttpError | undefined {
  switch (error.code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return new HttpError(413, 'Файл больше 10 МБ: разделите прайс-лист на части', 'file_too_large')
    case 'FST_FILES_LIMIT':
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
    case 'FST_PROTO_VIOLATION':
      return new HttpError(413, 'Ожидается один файл и поле confirm', 'too_many_parts')
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new HttpError(415, 'Ожидается multipart/form-data с файлом прайс-листа', 'unsupported_media_type')
  }
  return undefined
}

/** The upload: the file's bytes and the fields beside it. */
async function readUpload(request: FastifyRequest): Promise<{ bytes: Buffer; fields: Record<string, string> }> {
  if (!request.isMultipart()) {
    throw new HttpError(415, 'Ожидается multipart/form-data с файлом прайс-листа', 'unsupported_media_type')
  }
  let bytes: Buffer | undefined
  const fields: Record<string, string> = {}
  for await (const part of request.parts()) {
    if (part.type === 'field') {
      if (part.fieldname === 'confirm') fields.confirm = String(part.value).slice(0, 100)
      continue
    }
    if (bytes !== undefined) {
      await part.toBuffer().catch(() => {})
      throw new HttpError(400, 'Загрузите один файл', 'validation_failed')
    }
    bytes = await part.toBuffer()
  }
  if (bytes === undefined)
    throw new HttpError(400, 'Выберите файл прайс-листа', 'validation_failed', { file: 'Выберите файл' })
  return { bytes, fields }
}

export async function priceListRoutes(app: FastifyInstance, { config }: { config: Config }) {
  const access = createAdminCheck(config.adminToken, app.adminSession)
  await app.register(multipart, {
    limits: { fileSize: PRICE_LIST_LIMITS.maxBytes, files: 1, fields: 2, parts: 3, fieldSize: 1000 },
    throwFileSizeLimit: true,
  })
  app.setErrorHandler(
    createErrorHandler({ scope: 'price list', headers: { 'cache-control': 'no-store' }, translate: multipartError }),
  )

  app.post(routeOf(app, ADMIN_API_PATHS.priceListPreview), async (request) => {
    requireAdmin(await access(request))
    const { bytes } = await readUpload(request)
    return { data: await previewPriceList(app.db, bytes) }
  })

  app.post(routeOf(app, ADMIN_API_PATHS.priceListApply), async (request) => {
    requireAdmin(await access(request))
    const { bytes, fields } = await readUpload(request)
    if (!fields.confirm) {
      throw new HttpError(400, 'Сначала посмотрите предпросмотр: поле confirm пусто', 'validation_failed')
    }
    // Through the write door: the live site shows the new prices at once.
    const { changedIds, ...result } = await applyPriceList(app.writeDoor, bytes, fields.confirm)
    return { data: { ...result, changed: changedIds.length } }
  })
}
