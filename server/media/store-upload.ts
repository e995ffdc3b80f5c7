// An upload the write API accepted goes to the media store with its variants before the record
// that names it is written: a store that cannot take it fails the write with a Russian message,
// and nothing is written (docs/contract.md §3).
import type { FastifyBaseLogger } from 'fastify'
import { HttpError } from '../http/http-error'
import type { CheckedImage } from './image-store'
import { makeVariants } from './image-variants'
import { StorageUnavailableError, type MediaStorage } from './storage/media-storage'

export const STORAGE_DOWN_MESSAGE =
  'Хранилище изображений недоступно: изображение не сохранено. Попробуйте ещё раз через минуту'

/**
 * Stores a checked image (once: the same content has the same name) and makes its variants.
 * Throws HttpError 503 naming the form field when the store is unreachable.
 */
export async function storeUpload(
  storage: MediaStorage,
  image: CheckedImage,
  field: string,
  log: FastifyBaseLogger,
): Promise<void> {
  try {
    if ((await storage.size(image.relativePath)) === null) await storage.write(image.relativePath, image.bytes)
  } catch (error) {
    if (!(error instanceof StorageUnavailableError)) throw error
    log.warn({ message: error.message }, 'upload not stored: the media store is unavailable')
    throw new HttpError(503, STORAGE_DOWN_MESSAGE, error.code, { [field]: STORAGE_DOWN_MESSAGE })
  }
  // Made now so no visitor waits for them; one that fails is made on its first request instead.
  await makeVariants(storage, image.relativePath, image.bytes).catch((error: unknown) => {
    log.warn({ image: image.relativePath, message: (error as Error).message }, 'variants not made')
  })
}
