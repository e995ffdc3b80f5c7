// Reads a multipart write (docs/contract.md §3): one field `data` holding the JSON of every
// non-file value, and each image as its own entry named by its dot path. Every file is checked
// (format, size) before anything is stored; the values come back with each file's stored path.
import type { FastifyError, FastifyRequest } from 'fastify'
import { fromMultipartParts, MULTIPART_DATA_FIELD, type MultipartFilePart } from '../../src/api/multipart'
import { HttpError } from '../http/http-error'
import { checkImage, IMAGE_LIMITS, type CheckedImage } from './image-store'

export interface MultipartWrite {
  values: Record<string, unknown>
  files: Array<MultipartFilePart<CheckedImage>>
}

/** The write's values and checked files; 400/413/415 in Russian for anything else. */
export async function readMultipartWrite(
  request: FastifyRequest,
  modelName: string,
  allowedFiles: readonly RegExp[],
  limits?: { fieldSize: number },
): Promise<MultipartWrite> {
  if (!request.isMultipart()) {
    throw new HttpError(415, 'Ожидается multipart/form-data: поле data с JSON и файлы', 'unsupported_media_type')
  }
  let dataJson: string | undefined
  const files: Array<MultipartFilePart<CheckedImage>> = []
  for await (const part of request.parts(limits ? { limits } : undefined)) {
    if (part.type === 'field') {
      if (part.fieldname !== MULTIPART_DATA_FIELD) {
        throw new HttpError(
          400,
          `Неизвестное поле формы "${part.fieldname}": значения передаются в поле data`,
          'validation_failed',
        )
      }
      if (dataJson !== undefined) throw new HttpError(400, 'Поле data передано дважды', 'validation_failed')
      dataJson = typeof part.value === 'string' ? part.value : String(part.value)
      continue
    }
    if (!allowedFiles.some((pattern) => pattern.test(part.fieldname))) {
      await part.toBuffer().catch(() => {})
      throw new HttpError(400, `Файл "${part.fieldname}" не ожидается в модели ${modelName}`, 'validation_failed', {
        [part.fieldname]: 'Здесь не может быть файла',
      })
    }
    const bytes = await part.toBuffer()
    try {
      files.push({ path: part.fieldname, value: await checkImage(bytes) })
    } catch (error) {
      if (error instanceof HttpError) {
        throw new HttpError(error.statusCode, error.message, error.code, { [part.fieldname]: error.message })
      }
      throw error
    }
  }
  try {
    const values = fromMultipartParts(
      dataJson,
      files.map((f) => ({ path: f.path, value: f.value.relativePath })),
    )
    return { values, files }
  } catch {
    throw new HttpError(
      400,
      'Поле data должно содержать JSON-объект, а файлы — подходить к его полям',
      'validation_failed',
    )
  }
}

/** The multipart parser's limits and refusals, in the words of the write API (and the variants' pictures). */
export function multipartError(error: FastifyError): HttpError | undefined {
  switch (error.code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return new HttpError(
        413,
        `Файл слишком большой: не более ${IMAGE_LIMITS.maxBytes / 1024 / 1024} МБ`,
        'file_too_large',
      )
    case 'FST_FILES_LIMIT':
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return new HttpError(413, 'Слишком много файлов или полей в запросе', 'too_many_parts')
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new HttpError(415, 'Ожидается multipart/form-data', 'unsupported_media_type')
  }
  return undefined
}
