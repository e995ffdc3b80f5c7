// Where stored images live, behind one interface (docs/decisions/026-media-in-a-bucket.md): the
// MEDIA_DIR folder of one host (disk-storage.ts) or an S3-compatible bucket that every host shares
// (s3-storage.ts). Keys are media paths as pages write them after /media/: `uploads/<hash>.<W>x<H>.jpg`.
import type { IncomingMessage } from 'node:http'
import type { Readable } from 'node:stream'
import send from '@fastify/send'

/** An answer to a GET or HEAD of a stored file, conditional and range requests answered. */
export interface MediaAnswer {
  /** 200, 206, 304, 404 or 416 */
  readonly statusCode: number
  /** Content-Length, ETag, Last-Modified, Accept-Ranges, Content-Range as the store gives them */
  readonly headers: Readonly<Record<string, string>>
  /** The bytes of a 200 or 206 to a GET; null otherwise */
  readonly body: Readable | null
}

export interface MediaStorage {
  /** Several hosts see the same files: what one makes, the others must not make again. */
  readonly shared: boolean
  /** Where the files are, for people: the folder, or s3://bucket at the endpoint. Never a secret. */
  readonly location: string
  /** The size of a stored file, or null when there is none. */
  size(key: string): Promise<number | null>
  /** A stored file whole, or null when there is none. */
  read(key: string): Promise<Buffer | null>
  /** Stores a file whole or not at all; readers never see a part of it. */
  write(key: string, bytes: Buffer): Promise<void>
  /** Answers a visitor's GET or HEAD of a stored file (If-None-Match, If-Modified-Since, Range). */
  open(key: string, request: IncomingMessage): Promise<MediaAnswer>
}

/** The store cannot be reached or refuses us (network, credentials, its own outage). */
export class StorageUnavailableError extends Error {
  override readonly name = 'StorageUnavailableError'
  readonly code = 'media_storage_unavailable'
}

// Segments of letters, digits, dots, hyphens and underscores, none starting with a dot: no
// traversal, no hidden or temporary files, the same names on disk and in a bucket.
const KEY = /^(?:[A-Za-z0-9_-][A-Za-z0-9._-]{0,199}\/){0,4}[A-Za-z0-9_-][A-Za-z0-9._-]{0,199}$/

/** Whether a media path is one a store may hold (checked before any store is asked). */
export function isMediaKey(key: string): boolean {
  return KEY.test(key) && !key.endsWith('.tmp')
}

/** The Content-Type of a stored file, by its extension, the same from either store. */
export function mediaType(key: string): string {
  return send.mime.getType(key) ?? 'application/octet-stream'
}
