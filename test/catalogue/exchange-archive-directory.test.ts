// An archive of a thousand small pictures is listed from bytes already at hand, entry after entry
// with nothing to wait for, so nothing else in the process ran until the whole directory was read:
// a page asked for meanwhile waited 110–140 ms at 10,000 products (docs/decisions/032-1c-exchange.md).
// The listing now lets the process's other work go first every few milliseconds.
import { describe, expect, it } from 'vitest'
import { openArchive } from '../../server/catalogue/exchange/exchange-archives'
import type { StoredFile } from '../../server/catalogue/exchange/exchange-files'
import { buildZip } from '../helpers/zip'

const ENTRIES = 5_000

/** A stored file held in memory: the archive's bytes, read by range as the database's parts are */
function inMemory(bytes: Buffer): StoredFile {
  return {
    size: bytes.length,
    async *parts() {
      yield bytes
    },
    async *range(start: number, end: number) {
      yield bytes.subarray(start, end)
    },
    whole: async () => bytes,
  }
}

describe("an archive's directory", () => {
  const archive = buildZip(
    Array.from({ length: ENTRIES }, (_, i) => ({
      name: `import_files/${String(i).padStart(4, '0')}/photo-${i}.jpg`,
      data: Buffer.from(`picture ${i}`),
    })),
  )

  it('is read whole, every entry in order', async () => {
    const { zip, entries } = await openArchive(inMemory(archive), 10 * 1024 * 1024)
    zip.close()
    expect(entries).toHaveLength(ENTRIES)
    expect(entries[0].fileName).toBe('import_files/0000/photo-0.jpg')
    expect(entries.at(-1)!.fileName).toBe(`import_files/${ENTRIES - 1}/photo-${ENTRIES - 1}.jpg`)
  })

  it('lets the rest of the process run while it is read', async () => {
    // A turn of the event loop, counted as long as the listing runs: a request, a timer, a lead
    // would run in the same turns.
    let turns = 0
    let listing = true
    const counting = (async () => {
      while (listing) {
        await new Promise((resolve) => setImmediate(resolve))
        turns++
      }
    })()
    const started = turns
    const { zip, entries } = await openArchive(inMemory(archive), 10 * 1024 * 1024)
    const during = turns - started
    listing = false
    await counting
    zip.close()
    expect(entries).toHaveLength(ENTRIES)
    expect(during).toBeGreaterThanOrEqual(3)
  })

  it('is refused once its entries declare more than the session may still store', async () => {
    await expect(openArchive(inMemory(archive), 20_000)).rejects.toMatchObject({
      statusCode: 422,
      message: 'Архив распаковывается в слишком большой объём',
    })
  })
})
