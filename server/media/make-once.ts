// Images derived from a stored one (a variant, a share image) are made when first asked for, once:
// one job per key in this process however many visitors ask, and, when the store is a bucket that
// several hosts share, one job across all of them: the maker holds a lease in the database and the
// others wait until the image is in the bucket (docs/decisions/026-media-in-a-bucket.md).
import { randomBytes } from 'node:crypto'
import type { FastifyBaseLogger } from 'fastify'
import type { Db } from '../data/db'
import { dropMediaLease, takeMediaLease } from './media-lease'
import type { MediaStorage } from './storage/media-storage'

/** How long a visitor waits for another host's job before a 503 (the job goes on). */
const WAIT_MS = 20_000
const POLL_MS = [50, 100, 200, 400, 800]

/** Another host is still making the image: try again shortly (503 with Retry-After). */
export class MediaBusyError extends Error {
  override readonly name = 'MediaBusyError'
}

export interface Recipe {
  /** The stored image it is made from, or null when there is none (then it is a 404) */
  source(): Promise<string | null>
  render(source: Buffer): Promise<Buffer>
}

export interface MakeContext {
  readonly storage: MediaStorage
  readonly db: Db
  readonly log: FastifyBaseLogger
}

const jobsByStore = new WeakMap<MediaStorage, Map<string, Promise<boolean>>>()

/** Whether `key` is stored, made first from its recipe when it is not; false when it cannot be. */
export function makeOnce(context: MakeContext, key: string, recipe: Recipe): Promise<boolean> {
  let jobs = jobsByStore.get(context.storage)
  if (!jobs) jobsByStore.set(context.storage, (jobs = new Map()))
  let job = jobs.get(key)
  if (!job) {
    job = ensure(context, key, recipe).finally(() => jobs.delete(key))
    jobs.set(key, job)
  }
  return job
}

async function ensure(context: MakeContext, key: string, recipe: Recipe): Promise<boolean> {
  const { storage, db } = context
  if ((await storage.size(key)) !== null) return true
  const source = await recipe.source()
  if (source === null) return false
  if (!storage.shared) return make(context, key, source, recipe)
  const holder = randomBytes(12).toString('hex')
  const deadline = Date.now() + WAIT_MS
  for (let attempt = 0; ; attempt++) {
    if (await takeMediaLease(db, key, holder)) {
      try {
        // Another host may have finished between our look and our lease.
        if ((await storage.size(key)) !== null) return true
        return await make(context, key, source, recipe)
      } finally {
        // A lease left behind (the database gone meanwhile) runs out by itself.
        await dropMediaLease(db, key, holder).catch(() => {})
      }
    }
    if (Date.now() > deadline) throw new MediaBusyError(`${key} is still being made by another process`)
    await new Promise((resolve) => setTimeout(resolve, POLL_MS[Math.min(attempt, POLL_MS.length - 1)]))
    if ((await storage.size(key)) !== null) return true
  }
}

async function make(context: MakeContext, key: string, source: string, recipe: Recipe): Promise<boolean> {
  const input = await context.storage.read(source)
  if (input === null) return false
  await context.storage.write(key, await recipe.render(input))
  context.log.info({ image: key }, 'image made')
  return true
}
