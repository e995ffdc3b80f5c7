// Images in an S3-compatible bucket (Yandex Object Storage, Selectel, VK Cloud, Timeweb…) that
// every host shares, spoken to with aws4fetch: Signature V4 on Node's own fetch, nothing else
// (docs/decisions/026-media-in-a-bucket.md). Objects sit under `media/` with their Content-Type
// and year-long Cache-Control, so MEDIA_URL may point browsers straight at the bucket.
import { createHash } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import { Readable } from 'node:stream'
import type { ReadableStream } from 'node:stream/web'
import { AwsClient } from 'aws4fetch'
import type { S3StorageConfig } from '../../config/storage-config'
import { mediaType, StorageUnavailableError, type MediaAnswer, type MediaStorage } from './media-storage'

/** Until the answer's status and headers arrive; the body then streams at the visitor's pace. */
const HEADERS_TIMEOUT_MS = 10_000
/** The same caching as /media/ answers: every stored name carries its content's hash. */
const STORED_CACHE_CONTROL = 'public, max-age=31536000, immutable'
/** Object keys: `media/uploads/…`, so `${MEDIA_URL}/media/uploads/…` is the object's public URL. */
const KEY_PREFIX = 'media/'

const FORWARDED = ['if-none-match', 'if-modified-since', 'if-match', 'if-unmodified-since', 'range', 'if-range']
const PASSED_BACK = ['content-length', 'content-range', 'accept-ranges', 'etag', 'last-modified']
const ANSWERED = new Set([200, 206, 304, 412, 416])

export class S3Storage implements MediaStorage {
  readonly shared = true
  readonly location: string
  private readonly client: AwsClient
  private readonly base: string

  constructor(config: S3StorageConfig) {
    // Two quick retries of a 5xx or 429; a refused connection fails at once (the caller answers 503).
    this.client = new AwsClient({
      accessKeyId: config.accessKeyId,
      secretAccessKey: config.secretAccessKey,
      service: 's3',
      region: config.region,
      retries: 2,
      initRetryMs: 100,
    })
    const endpoint = new URL(config.endpoint)
    this.base = config.forcePathStyle
      ? `${endpoint.origin}/${config.bucket}/${KEY_PREFIX}`
      : `${endpoint.protocol}//${config.bucket}.${endpoint.host}/${KEY_PREFIX}`
    this.location = `bucket ${config.bucket} at ${config.endpoint}`
  }

  private async request(method: string, key: string, headers: Record<string, string> = {}, body?: Buffer) {
    const controller = new AbortController()
    const timer = setTimeout(() => controller.abort(), HEADERS_TIMEOUT_MS)
    try {
      // Keys are checked media paths (letters, digits, . _ - /): nothing in them needs escaping.
      return await this.client.fetch(this.base + key, {
        method,
        headers,
        // A Buffer is a Uint8Array over an ArrayBuffer (never a shared one here).
        body: body as Uint8Array<ArrayBuffer> | undefined,
        signal: controller.signal,
      })
    } catch (error) {
      throw new StorageUnavailableError(`${this.location} unreachable: ${describe(error)}`, { cause: error })
    } finally {
      clearTimeout(timer)
    }
  }

  private refused(response: Response, what: string): StorageUnavailableError {
    void response.body?.cancel()
    return new StorageUnavailableError(`${this.location} answered ${response.status} to ${what}`)
  }

  async size(key: string): Promise<number | null> {
    const response = await this.request('HEAD', key)
    if (response.status === 404) return null
    if (response.status !== 200) throw this.refused(response, 'HEAD')
    return Number(response.headers.get('content-length') ?? 0)
  }

  async read(key: string): Promise<Buffer | null> {
    const response = await this.request('GET', key)
    if (response.status === 404) {
      void response.body?.cancel()
      return null
    }
    if (response.status !== 200) throw this.refused(response, 'GET')
    return Buffer.from(await response.arrayBuffer())
  }

  async write(key: string, bytes: Buffer): Promise<void> {
    const response = await this.request(
      'PUT',
      key,
      {
        'content-type': mediaType(key),
        'cache-control': STORED_CACHE_CONTROL,
        // Signed with the request: the bucket refuses bytes that changed on the way.
        'x-amz-content-sha256': createHash('sha256').update(bytes).digest('hex'),
      },
      bytes,
    )
    if (response.status !== 200) throw this.refused(response, 'PUT')
    void response.body?.cancel()
  }

  async open(key: string, request: IncomingMessage): Promise<MediaAnswer> {
    const method = request.method === 'HEAD' ? 'HEAD' : 'GET'
    const forwarded: Record<string, string> = {}
    for (const name of FORWARDED) {
      const value = request.headers[name]
      if (typeof value === 'string') forwarded[name] = value
    }
    const response = await this.request(method, key, forwarded)
    if (response.status === 404) {
      void response.body?.cancel()
      return { statusCode: 404, headers: {}, body: null }
    }
    if (!ANSWERED.has(response.status)) throw this.refused(response, method)
    const headers: Record<string, string> = {}
    for (const name of PASSED_BACK) {
      const value = response.headers.get(name)
      if (value !== null) headers[name] = value
    }
    const streams = method === 'GET' && (response.status === 200 || response.status === 206) && response.body
    if (!streams) void response.body?.cancel()
    return {
      statusCode: response.status,
      headers,
      body: streams ? Readable.fromWeb(response.body as ReadableStream<Uint8Array>) : null,
    }
  }
}

/** A fetch failure's reason (fetch says only "fetch failed"; the cause names ECONNREFUSED etc.). */
function describe(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause
  return cause?.code ?? cause?.message ?? (error as Error).message
}
