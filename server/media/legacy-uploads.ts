// Uploads stored before their names carried a size (`uploads/<hash>.<ext>`) get the sized name a
// new upload of the same bytes would get, in the background at start-up (docs/decisions/015). The
// pages then show them through their variants, made on the first request of each. The old file
// stays, so links to it keep working; several processes doing this at once do the same harmless work.
import type { FastifyInstance } from 'fastify'
import type { Db } from '../data/db'
import type { ContentDoor } from '../content/content-write'
import { renameImage } from '../content/structure-store'
import { sizedUploadPath } from '../../src/site/image-variants'
import { loadSharp } from './sharp'
import { IMAGE_LIMITS } from './image-store'
import type { MediaStorage } from './storage/media-storage'

const LEGACY = /^uploads\/([0-9a-f]{32})\.(jpg|png|webp|avif)$/

/** The sized name of a legacy upload, its file copied there; null when it is not stored. */
async function sizedCopy(
  storage: MediaStorage,
  legacy: string,
  hash: string,
  extension: string,
): Promise<string | null> {
  const bytes = await storage.read(legacy)
  if (bytes === null) return null
  const sharp = await loadSharp()
  const { autoOrient } = await sharp(bytes, { limitInputPixels: IMAGE_LIMITS.maxPixels }).metadata()
  const sized = sizedUploadPath(hash, autoOrient.width, autoOrient.height, extension)
  if ((await storage.size(sized)) === null) await storage.write(sized, bytes)
  return sized
}

/**
 * The image columns of the content's tables (the model API's registry knows them), each with the
 * column naming the record its row belongs to (`structureId`; `productId` for a variant's picture).
 */
export type ImageColumns = ReadonlyArray<{ readonly table: string; readonly column: string; readonly owner: string }>

/**
 * Gives every legacy upload that records point to its sized name, through the write door, and
 * returns how many names changed. `stopping` is asked between images, so a closing server does not
 * wait for the rest.
 */
export async function sizeLegacyUploads(
  door: ContentDoor,
  columns: ImageColumns,
  storage: MediaStorage,
  stopping: () => boolean,
): Promise<number> {
  const db: Db = door.db
  const renames = new Map<string, string>()
  for (const { table, column } of columns) {
    const rows: Array<Record<string, unknown>> = await db
      .selectFrom(table as 'structure')
      .select(column as 'metaImage')
      .distinct()
      .where(column as 'metaImage', 'like', 'uploads/%')
      .execute()
    for (const row of rows) {
      const legacy = String(row[column])
      const match = LEGACY.exec(legacy)
      if (!match || renames.has(legacy) || stopping()) continue
      try {
        const sized = await sizedCopy(storage, legacy, match[1], match[2])
        if (sized) renames.set(legacy, sized)
      } catch {
        // An unreadable file stays as it is: the page shows it as a plain image, as before.
      }
    }
  }
  if (renames.size === 0 || stopping()) return 0
  await door.write(async (unit) => {
    for (const where of columns) {
      for (const [legacy, sized] of renames) await renameImage(unit, where, legacy, sized)
    }
  })
  return renames.size
}

/** Runs sizeLegacyUploads once the app is ready, without holding up the start or a close. */
export async function legacyUploadsPlugin(app: FastifyInstance, { columns }: { columns: ImageColumns }) {
  let closing = false
  let running: Promise<void> = Promise.resolve()
  app.addHook('onReady', async () => {
    running = sizeLegacyUploads(app.writeDoor, columns, app.mediaStorage, () => closing)
      .then((renamed) => {
        if (renamed === 0) return
        app.log.info({ images: renamed }, 'uploads stored before sized names renamed')
      })
      .catch((error: unknown) => {
        if (!closing)
          app.log.warn({ message: (error as Error).message }, 'uploads stored before sized names not renamed')
      })
  })
  app.addHook('preClose', async () => {
    closing = true
    await running
  })
}
