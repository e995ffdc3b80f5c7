// `npm run content -- media-sync`: copies the MEDIA_DIR folder into the bucket, so a shop on one
// host moves its images to shared storage without stopping (README, "Running on several hosts").
// Idempotent and resumable: a file the bucket already holds at the same size is not sent again,
// so a run cut short (or one after the switch, for uploads made meanwhile) copies only the rest.
import fs from 'node:fs/promises'
import path from 'node:path'
import { isMediaKey, StorageUnavailableError, type MediaStorage } from './storage/media-storage'

/** Files in flight at once: enough to hide the bucket's latency, few enough for a small host. */
const PARALLEL = 8

export interface SyncResult {
  /** Sent to the bucket by this run */
  readonly copied: number
  /** Already in the bucket at the same size */
  readonly present: number
  /** Not media (temporary files, hidden files): never sent */
  readonly skipped: number
  /** Could not be read from the folder (the run goes on without them) */
  readonly failed: readonly string[]
}

async function* files(dir: string, prefix = ''): AsyncGenerator<{ file: string; key: string }> {
  const entries = await fs.readdir(dir, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return []
    throw error
  })
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const file = path.join(dir, entry.name)
    const key = prefix + entry.name
    if (entry.isDirectory()) yield* files(file, `${key}/`)
    else if (entry.isFile()) yield { file, key }
  }
}

/**
 * Copies every media file under `mediaDir` that `bucket` lacks. Stops with StorageUnavailableError
 * when the bucket cannot be reached (what was copied stays; run it again to go on).
 */
export async function syncMediaFolder(
  mediaDir: string,
  bucket: MediaStorage,
  progress: (line: string) => void = () => {},
): Promise<SyncResult> {
  let copied = 0
  let present = 0
  let skipped = 0
  const failed: string[] = []
  const running = new Set<Promise<void>>()
  // Set from the copies' callbacks: the first sign that the bucket is away.
  const halt: { error: StorageUnavailableError | null } = { error: null }

  const copy = async (file: string, key: string) => {
    const [stat, stored] = await Promise.all([fs.stat(file), bucket.size(key)])
    if (stored === stat.size) {
      present++
      return
    }
    await bucket.write(key, await fs.readFile(file))
    copied++
    if (copied % 100 === 0) progress(`${copied} files copied…`)
  }

  for await (const { file, key } of files(mediaDir)) {
    if (halt.error !== null) break
    if (!isMediaKey(key)) {
      skipped++
      continue
    }
    const job = copy(file, key)
      .catch((error: unknown) => {
        if (error instanceof StorageUnavailableError) halt.error ??= error
        else failed.push(key)
      })
      .finally(() => running.delete(job))
    running.add(job)
    if (running.size >= PARALLEL) await Promise.race(running)
  }
  await Promise.all(running)
  if (halt.error !== null) {
    throw new StorageUnavailableError(
      `${halt.error.message}; ${copied} files copied so far: run media-sync again to go on`,
    )
  }
  return { copied, present, skipped, failed }
}
