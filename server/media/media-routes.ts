// GET /media/* (stored images and their variants), GET /og-image/* (share previews) and GET
// /feed-image/*.jpg (the Yandex feed's JPEG pictures, server/media/feed-image.ts; the same path
// without .jpg, as feeds named them before, redirects there for good), answered
// from the media store, the folder or the bucket alike: the same Cache-Control, validators, range
// answers and 404s, and a policy that keeps an SVG opened on its own from running anything. A
// variant or share image not stored yet is made first, once (make-once.ts).
import { Readable } from 'node:stream'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { parseVariantPath } from '../../src/site/image-variants'
import { feedImagePath, PATHS } from '../../src/site/paths'
import { isDatabaseUnavailable } from '../data/unavailable'
import { createErrorHandler, errorBody } from '../http/errors'
import { HttpError } from '../http/http-error'
import { ensureVariant } from './image-variants'
import { MediaBusyError, type MakeContext } from './make-once'
import { ensureFeedImage, parseFeedImagePath } from './feed-image'
import { ensureOgImage, renderOgImage } from './og-image'
import { NO_PHOTO_SVG } from '../../src/site/no-photo'
import { isMediaKey, mediaType, StorageUnavailableError, type MediaAnswer } from './storage/media-storage'

/** Stored names carry their content's hash: they never change. */
const IMMUTABLE = 'public, max-age=31536000, immutable'
/** A share image is named after its source, and crawlers fetch it rarely. */
const SHARE_IMAGE_CACHE = 'public, max-age=86400'
/** An image is a picture, not a document: opened on its own, an SVG runs no script and loads nothing. */
export const MEDIA_CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox"
/** What a 503 of the media store tells the client to wait, in seconds */
const RETRY_AFTER_SECONDS = 10

/** The media path after the route's prefix, or null for anything that cannot be a stored file. */
function keyOf(request: FastifyRequest, prefix: string): string | null {
  const raw = request.url.split('?', 1)[0].slice(prefix.length)
  try {
    const key = decodeURIComponent(raw)
    return isMediaKey(key) ? key : null
  } catch {
    return null
  }
}

function send(reply: FastifyReply, key: string | null, answer: MediaAnswer | null, cacheControl: string) {
  reply.header('content-security-policy', MEDIA_CSP)
  if (key === null || answer === null || answer.statusCode === 404) return reply.code(404).send(errorBody(404))
  // After the store's headers: @fastify/send gives its 412 and 416 a policy of its own (without
  // `sandbox`), and every answer here carries the media policy.
  reply.code(answer.statusCode).headers(answer.headers).header('content-security-policy', MEDIA_CSP)
  if (answer.statusCode < 300 || answer.statusCode === 304) reply.header('cache-control', cacheControl)
  if (answer.statusCode < 300) reply.type(mediaType(key))
  // A HEAD gets an empty stream: Fastify keeps the Content-Length of a stream, not of no body.
  return reply.send(answer.body ?? (answer.statusCode < 300 ? Readable.from([]) : undefined))
}

/** Whether the store (or the lease's database) is away, rather than the image broken. */
function isUnavailable(error: unknown): boolean {
  return error instanceof StorageUnavailableError || error instanceof MediaBusyError || isDatabaseUnavailable(error)
}

function storeAway(): HttpError {
  const { code, message } = errorBody(503).error
  return new HttpError(503, message, code, undefined, RETRY_AFTER_SECONDS)
}

export async function mediaRoutes(app: FastifyInstance) {
  let noPhoto: Promise<Buffer> | null = null
  const storage = app.mediaStorage
  const context = (request: FastifyRequest): MakeContext => ({ storage, db: app.db, log: request.log })

  /** Makes a missing image; a broken source is logged and its image stays a 404. */
  async function made<T>(request: FastifyRequest, making: Promise<T>, fallback: T): Promise<T> {
    try {
      return await making
    } catch (error) {
      if (isUnavailable(error)) throw error
      request.log.warn({ message: (error as Error).message }, 'image not made')
      return fallback
    }
  }

  // A failed answer carries the media policy too, and is never kept; the store away is a 503 to
  // retry shortly, logged as a warning (every request meets it until the store is back).
  app.setErrorHandler(
    createErrorHandler({
      scope: 'media',
      headers: { 'content-security-policy': MEDIA_CSP, 'cache-control': 'no-store' },
      translate: (error) => (isUnavailable(error) ? storeAway() : undefined),
      warnOf: (error) => (isUnavailable(error) ? 'media store unavailable' : undefined),
    }),
  )

  app.get(`${PATHS.media}*`, async (request, reply) => {
    const key = keyOf(request, PATHS.media)
    if (key === null) return send(reply, null, null, IMMUTABLE)
    let answer = await storage.open(key, request.raw)
    if (answer.statusCode === 404 && parseVariantPath(key) !== null) {
      if (await made(request, ensureVariant(context(request), key), false))
        answer = await storage.open(key, request.raw)
    }
    return send(reply, key, answer, IMMUTABLE)
  })

  // A product without a picture: the placeholder's share image, rendered once per process.
  app.get(PATHS.noPhotoImage, async (_request, reply) => {
    noPhoto ??= renderOgImage(Buffer.from(NO_PHOTO_SVG))
    return reply
      .header('content-security-policy', MEDIA_CSP)
      .header('cache-control', SHARE_IMAGE_CACHE)
      .type('image/jpeg')
      .send(await noPhoto)
  })

  app.get(`${PATHS.ogImage}*`, async (request, reply) => {
    const source = keyOf(request, PATHS.ogImage)
    const key = source === null ? null : await made(request, ensureOgImage(context(request), source), null)
    return send(reply, key, key === null ? null : await storage.open(key, request.raw), SHARE_IMAGE_CACHE)
  })

  app.get(`${PATHS.feedImage}*`, async (request, reply) => {
    const name = keyOf(request, PATHS.feedImage)
    const named = name === null ? null : parseFeedImagePath(name)
    // A feed fetched before its pictures' URLs ended in .jpg: one permanent step to the same picture.
    if (named && !named.current) {
      return reply
        .header('content-security-policy', MEDIA_CSP)
        .header('cache-control', SHARE_IMAGE_CACHE)
        .redirect(feedImagePath(named.source), 301)
    }
    const key = named === null ? null : await made(request, ensureFeedImage(context(request), named.source), null)
    return send(reply, key, key === null ? null : await storage.open(key, request.raw), SHARE_IMAGE_CACHE)
  })
}
