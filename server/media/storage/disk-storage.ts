// Images in the MEDIA_DIR folder of this host: one host (and its PM2 workers) sees them. Files are
// written under a unique temporary name and renamed, so a reader never sees half a file, also with
// two workers writing the same one. Answers go through @fastify/send, as @fastify/static's do.
import { randomBytes } from 'node:crypto'
import fs from 'node:fs/promises'
import path from 'node:path'
import send from '@fastify/send'
import { StorageUnavailableError, type MediaAnswer, type MediaStorage } from './media-storage'

const ANSWERED = new Set([200, 206, 304, 412, 416])

export class DiskStorage implements MediaStorage {
  readonly shared = false

  constructor(readonly location: string) {}

  async size(key: string): Promise<number | null> {
    try {
      const stat = await fs.stat(path.join(this.location, key))
      return stat.isFile() ? stat.size : null
    } catch {
      return null
    }
  }

  async read(key: string): Promise<Buffer | null> {
    try {
      return await fs.readFile(path.join(this.location, key))
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
      throw error
    }
  }

  async write(key: string, bytes: Buffer): Promise<void> {
    const target = path.join(this.location, key)
    await fs.mkdir(path.dirname(target), { recursive: true })
    const temp = `${target}.${randomBytes(6).toString('hex')}.tmp`
    try {
      await fs.writeFile(temp, bytes)
      await fs.rename(temp, target)
    } catch (error) {
      await fs.rm(temp, { force: true })
      throw error
    }
  }

  async open(key: string, request: Parameters<MediaStorage['open']>[1]): Promise<MediaAnswer> {
    const { statusCode, headers, stream } = await send(request, `/${key}`, {
      root: this.location,
      index: false,
      dotfiles: 'deny',
      cacheControl: false, // the route sets it: the same whichever store answers
      contentType: false,
    })
    if (statusCode >= 500) {
      stream.destroy()
      throw new StorageUnavailableError(`media folder unreadable: ${this.location}`)
    }
    const answered = ANSWERED.has(statusCode)
    const body = answered && (statusCode === 200 || statusCode === 206) && request.method !== 'HEAD' ? stream : null
    if (!body) stream.destroy()
    if (!answered) return { statusCode: 404, headers: {}, body: null }
    return { statusCode, headers, body }
  }
}
