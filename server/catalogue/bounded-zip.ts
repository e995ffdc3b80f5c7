// A zip archive checked before anything unpacks it for use (issue #35): an XLSX price list, and the
// 1C exchange's archives. Read from its central directory with yauzl: refused when it has too many
// entries or declares too many bytes uncompressed (nothing inflated yet), when its entries do not
// follow each other exactly (a streaming reader such as exceljs's walks the local headers, and must
// meet exactly the entries checked here), and when inflating it yields more than declared or more
// than the limit (yauzl's validateEntrySizes; counted as it streams, nothing kept). Inflating runs
// on zlib's thread pool, in pieces: the event loop stays free.
import zlib from 'node:zlib'
import type { Entry, ZipFile } from 'yauzl'

export interface ZipLimits {
  readonly maxEntries: number
  /** Uncompressed bytes of all entries together */
  readonly maxBytes: number
}

export type ZipProblem = 'broken' | 'entries' | 'size'

/** Why an archive is refused; the caller words it for its user. */
export class ZipRefused extends Error {
  constructor(
    readonly problem: ZipProblem,
    message: string,
  ) {
    super(message)
  }
}

export interface ZipEntryInfo {
  readonly name: string
  readonly size: number
  /** Where the entry's local header starts and its data (and data descriptor) end in the archive */
  readonly span: readonly [start: number, end: number]
}

const DATA_DESCRIPTOR_FLAG = 0x8
const UTF8_NAME_FLAG = 0x800
const LOCAL_HEADER_SIGNATURE = 0x04034b50
const EOCD_SIGNATURE = 0x06054b50

/** The central directory's offset, from the end-of-central-directory record. */
function centralDirectoryOffset(bytes: Buffer): number | null {
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 0xffff); at--) {
    if (bytes.readUInt32LE(at) === EOCD_SIGNATURE) return bytes.readUInt32LE(at + 16)
  }
  return null
}

function readEntries(zip: ZipFile): Promise<Entry[]> {
  return new Promise((resolve, reject) => {
    const entries: Entry[] = []
    zip.on('entry', (entry: Entry) => {
      entries.push(entry)
      zip.readEntry()
    })
    zip.once('end', () => resolve(entries))
    zip.once('error', reject)
    zip.readEntry()
  })
}

/** Checks the archive (see the file's head); its entries' names and sizes, or ZipRefused. */
export async function checkZip(bytes: Buffer, limits: ZipLimits): Promise<ZipEntryInfo[]> {
  const yauzl = await import('yauzl')
  let zip: ZipFile
  try {
    zip = await yauzl.fromBufferPromise(bytes, { lazyEntries: true, validateEntrySizes: true, strictFileNames: false })
  } catch (error) {
    throw new ZipRefused('broken', `not a zip archive: ${(error as Error).message}`)
  }
  try {
    if (zip.entryCount > limits.maxEntries) throw new ZipRefused('entries', `${zip.entryCount} entries`)
    let entries: Entry[]
    try {
      entries = await readEntries(zip)
    } catch (error) {
      throw new ZipRefused('broken', (error as Error).message)
    }
    const declared = entries.reduce((sum, entry) => sum + entry.uncompressedSize, 0)
    if (declared > limits.maxBytes) throw new ZipRefused('size', `${declared} bytes declared`)
    const spans = await checkLayout(zip, bytes, entries)
    let inflated = 0
    for (const entry of entries) {
      if (entry.fileName.endsWith('/')) continue
      try {
        const stream = await zip.openReadStreamPromise(entry)
        for await (const chunk of stream) {
          inflated += (chunk as Buffer).length
          if (inflated > limits.maxBytes) {
            stream.destroy()
            throw new ZipRefused('size', `more than ${limits.maxBytes} bytes inflated`)
          }
        }
      } catch (error) {
        if (error instanceof ZipRefused) throw error
        // validateEntrySizes: an entry that inflates to other than it declares
        throw new ZipRefused(/too many bytes|size/i.test((error as Error).message) ? 'size' : 'broken', String(error))
      }
    }
    return entries.map((entry) => ({
      name: entry.fileName,
      size: entry.uncompressedSize,
      span: spans.get(entry)!,
    }))
  } finally {
    zip.close()
  }
}

/**
 * The entries' local headers and data follow each other from byte 0 to the central directory;
 * each entry's span in the archive.
 */
async function checkLayout(
  zip: ZipFile,
  bytes: Buffer,
  entries: readonly Entry[],
): Promise<Map<Entry, readonly [number, number]>> {
  const spans = new Map<Entry, readonly [number, number]>()
  const end = centralDirectoryOffset(bytes)
  if (end === null) throw new ZipRefused('broken', 'no end of central directory')
  const sorted = [...entries].sort((a, b) => a.relativeOffsetOfLocalHeader - b.relativeOffsetOfLocalHeader)
  let next = 0
  for (const entry of sorted) {
    if (entry.relativeOffsetOfLocalHeader !== next) throw new ZipRefused('broken', 'bytes between entries')
    const local = await zip.readLocalFileHeaderPromise(entry).catch((error: Error) => {
      throw new ZipRefused('broken', error.message)
    })
    const dataEnd = local.fileDataStart + entry.compressedSize
    if (dataEnd + 4 > bytes.length) throw new ZipRefused('broken', 'an entry runs past the end')
    if (entry.generalPurposeBitFlag & DATA_DESCRIPTOR_FLAG) {
      // A data descriptor after the data: 12 bytes, or 16 with its optional signature.
      next = bytes.readUInt32LE(dataEnd) === 0x08074b50 ? dataEnd + 16 : dataEnd + 12
    } else {
      if (local.compressedSize !== entry.compressedSize || local.uncompressedSize !== entry.uncompressedSize) {
        throw new ZipRefused('broken', 'local header disagrees with the central directory')
      }
      next = dataEnd
    }
    spans.set(entry, [entry.relativeOffsetOfLocalHeader, next])
  }
  if (next !== end) throw new ZipRefused('broken', 'bytes between the entries and the central directory')
  return spans
}

/**
 * A checked archive's bytes for a reader that walks its local headers in order (exceljs): the
 * given entries' spans in the given order, then the central directory. Every span is an entry
 * whole (checkZip checked that they follow each other exactly), so the pieces read as an archive.
 */
export function entriesInOrder(bytes: Buffer, entries: readonly ZipEntryInfo[]): Buffer[] {
  const directory = Math.max(0, ...entries.map((entry) => entry.span[1]))
  return [...entries.map((entry) => bytes.subarray(entry.span[0], entry.span[1])), bytes.subarray(directory)]
}

/** A zip entry stored uncompressed: its local header and data, for entriesInOrder's list. */
export function storedEntry(name: string, data: Buffer): Buffer {
  const fileName = Buffer.from(name, 'utf8')
  const header = Buffer.alloc(30)
  header.writeUInt32LE(LOCAL_HEADER_SIGNATURE, 0)
  header.writeUInt16LE(20, 4) // version needed: 2.0
  header.writeUInt16LE(UTF8_NAME_FLAG, 6)
  header.writeUInt16LE(0, 8) // stored
  header.writeUInt16LE(0, 10) // time 00:00
  header.writeUInt16LE(0x21, 12) // date 1980-01-01
  header.writeUInt32LE(zlib.crc32(data), 14)
  header.writeUInt32LE(data.length, 18)
  header.writeUInt32LE(data.length, 22)
  header.writeUInt16LE(fileName.length, 26)
  header.writeUInt16LE(0, 28) // no extra field
  return Buffer.concat([header, fileName, data])
}
