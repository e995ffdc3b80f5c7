// The 1C exchange's archives (`*.zip`), unpacked once into files of the same session
// (docs/decisions/032-1c-exchange.md). An archive is refused before a byte is inflated when it has
// too many entries or its entries declare more than the session may still store, or an entry
// declares more than one file may be or a zip bomb's ratio; and while inflating, where the bytes are
// counted as they stream (a header's size is never trusted alone), when an entry yields more than it
// declared, more than one file may be, or more than `zipRatio` times its compressed size. An entry
// is stored a mebibyte at a time as it inflates (held whole, a large import.xml was 60 MB of the
// process's memory); a refused one is dropped with the entries of the same archive stored before
// it, so nothing of a refused archive stays (a zip bomb is refused past a mebibyte or two). The
// archive itself is read where it is stored, a part of it at a time.
import { Readable } from 'node:stream'
import yauzl from 'yauzl'
import { type Db } from '../../data/db'
import { writeTransaction } from '../../data/write-transaction'
import { HttpError } from '../../http/http-error'
import { letOthersWrite, UNTIL_THE_ANSWER, yieldingEvery } from '../import-claim'
import {
  EXCHANGE_LIMITS,
  checkedName,
  dropFiles,
  listFiles,
  storedBytes,
  storedFile,
  STORED_PART_BYTES,
  type StoredFile,
} from './exchange-files'

/**
 * How long reading an archive's directory runs before it lets the process's other work go first:
 * read from bytes already at hand, a thousand entries follow one another without a wait, and a
 * page asked for meanwhile waited 110–140 ms (10,000 products, SQLite).
 */
const YIELD_EVERY_MS = 10

/** What one transaction of an archive's unpacking writes at most */
const UNPACK_BATCH = { entries: 100, bytes: STORED_PART_BYTES }

const zipError = (message: string) => new HttpError(422, message, 'bad_archive')

const megabytes = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} МБ`

/**
 * An archive read where it is stored, as yauzl asks for its bytes: its central directory, then each
 * entry. Held whole, a 200 MB archive of pictures was 200 MB of the process's memory and as much
 * again while its parts were joined. A failure to read the database is kept, to be told as itself
 * and not as a broken archive.
 */
class StoredArchive extends yauzl.RandomAccessReader {
  failure: Error | null = null
  constructor(private readonly file: StoredFile) {
    super()
  }
  _readStreamForRange(start: number, end: number): Readable {
    const file = this.file
    const kept = (error: unknown) => (this.failure ??= error as Error)
    return Readable.from(
      (async function* () {
        try {
          yield* file.range(start, end)
        } catch (error) {
          throw kept(error)
        }
      })(),
      { objectMode: false },
    )
  }
}

/** Why yauzl failed: the database's failure as it is, or the archive's as a 422 */
const archiveError = (reader: StoredArchive, error: Error) =>
  reader.failure ?? zipError(`Архив повреждён: ${error.message}`)

function openZip(reader: StoredArchive, size: number): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) =>
    yauzl.fromRandomAccessReader(
      reader,
      size,
      { lazyEntries: true, validateEntrySizes: true, strictFileNames: false, autoClose: false },
      (error, zip) => (error ? reject(archiveError(reader, error)) : resolve(zip)),
    ),
  )
}

/** The archive's entries, refused when they declare more than `budget` bytes together. */
function entriesOf(zip: yauzl.ZipFile, reader: StoredArchive, budget: number): Promise<yauzl.Entry[]> {
  return new Promise<yauzl.Entry[]>((resolve, reject) => {
    const list: yauzl.Entry[] = []
    const breathe = yieldingEvery(YIELD_EVERY_MS)
    let declared = 0
    zip.on('entry', (entry: yauzl.Entry) => {
      declared += entry.uncompressedSize
      if (declared > budget) {
        zip.close()
        reject(zipError('Архив распаковывается в слишком большой объём'))
        return
      }
      list.push(entry)
      // The directory is read from bytes already at hand, one entry after another without a wait:
      // a thousand entries held the process for 130 ms unless it lets requests go first now and then.
      breathe().then(() => zip.readEntry(), reject)
    })
    zip.on('end', () => resolve(list))
    zip.on('error', (error: Error) => reject(archiveError(reader, error)))
    zip.readEntry()
  })
}

/** Why an entry that has inflated to `bytes` (or declares them) is refused; null while it is within limits. */
function pastLimits(archive: string, entry: yauzl.Entry, bytes: number): string | null {
  const what = `Архив ${archive}: файл ${entry.fileName}`
  if (bytes > EXCHANGE_LIMITS.fileBytes) {
    return `${what} распаковывается больше чем в ${megabytes(EXCHANGE_LIMITS.fileBytes)}: такой файл обмен не принимает`
  }
  if (bytes > EXCHANGE_LIMITS.zipRatioFrom && bytes > entry.compressedSize * EXCHANGE_LIMITS.zipRatio) {
    return (
      `${what} сжат больше чем в ${EXCHANGE_LIMITS.zipRatio} раз (${megabytes(bytes)} из ` +
      `${Math.ceil(entry.compressedSize / 1024)} КБ): похоже на zip-бомбу, архив не принят`
    )
  }
  return null
}

/** Opens an entry's stream of inflated bytes. */
function readStream(zip: yauzl.ZipFile, reader: StoredArchive, entry: yauzl.Entry): Promise<NodeJS.ReadableStream> {
  return new Promise((resolve, reject) =>
    zip.openReadStream(entry, (error, stream) => (error ? reject(archiveError(reader, error)) : resolve(stream))),
  )
}

/**
 * An entry's inflated bytes in parts of STORED_PART_BYTES (the last may be shorter), counted as they
 * stream: refused (HttpError) the moment they pass what the entry declared or a limit. Only the
 * part being filled is held, so an entry of any size costs a mebibyte or two of memory.
 */
async function* inflatedParts(
  zip: yauzl.ZipFile,
  reader: StoredArchive,
  archive: string,
  entry: yauzl.Entry,
): AsyncGenerator<Buffer> {
  const early = pastLimits(archive, entry, entry.uncompressedSize)
  if (early !== null) throw zipError(early)
  const stream = await readStream(zip, reader, entry)
  let chunks: Buffer[] = []
  let chunked = 0
  let total = 0
  let parts = 0
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      total += chunk.length
      const refused =
        total > entry.uncompressedSize
          ? `Архив ${archive}: файл ${entry.fileName} распаковывается в больший объём, чем заявлено`
          : pastLimits(archive, entry, total)
      if (refused !== null) throw zipError(refused)
      chunks.push(chunk)
      chunked += chunk.length
      while (chunked >= STORED_PART_BYTES) {
        const whole = Buffer.concat(chunks)
        // The part is a view of `whole` (a mebibyte and less than a chunk); the rest, less than a
        // chunk, is copied, so the next part does not keep this one's bytes alive.
        yield whole.subarray(0, STORED_PART_BYTES)
        parts++
        chunks = [Buffer.from(whole.subarray(STORED_PART_BYTES))]
        chunked = chunks[0].length
      }
    }
  } catch (error) {
    ;(stream as unknown as { destroy?: () => void }).destroy?.()
    throw error instanceof HttpError ? error : archiveError(reader, error as Error)
  }
  if (chunked > 0 || parts === 0) yield Buffer.concat(chunks)
}

/**
 * A stored archive opened and its directory read: refused (422) past the entry count, or when its
 * entries declare more than `budget` bytes together. The caller closes `zip`.
 */
export async function openArchive(
  file: StoredFile,
  budget: number,
): Promise<{ zip: yauzl.ZipFile; reader: StoredArchive; entries: yauzl.Entry[] }> {
  const reader = new StoredArchive(file)
  const zip = await openZip(reader, file.size)
  if (zip.entryCount > EXCHANGE_LIMITS.zipEntries) {
    zip.close()
    throw zipError(`В архиве больше ${EXCHANGE_LIMITS.zipEntries} файлов`)
  }
  return { zip, reader, entries: await entriesOf(zip, reader, budget) }
}

/** Unpacks the session's archives (see the file's head); returns the names of the archives unpacked. */
export async function unpackArchives(db: Db, sessionId: string): Promise<string[]> {
  const archives = (await listFiles(db, sessionId)).filter((f) => f.name.toLowerCase().endsWith('.zip'))
  for (const archive of archives) {
    const file = (await storedFile(db, sessionId, archive.name))!
    const budget = EXCHANGE_LIMITS.sessionBytes - (await storedBytes(db, sessionId))
    const { zip, reader, entries } = await openArchive(file, budget)
    const seen = new Map<string, number>()
    // A batch of entries per transaction, SQLite's write lock left free between two (as an import's
    // steps do): a thousand pictures, each its own commit, kept other processes' leads polling for it.
    const pending: { name: string; seq: number; bytes: Buffer; replace: boolean }[] = []
    let pendingBytes = 0
    const flush = async () => {
      if (pending.length === 0) return
      const started = performance.now()
      await writeTransaction(
        db,
        async (trx) => {
          for (const part of pending) {
            if (part.replace) {
              await trx
                .deleteFrom('exchangeFile')
                .where('sessionId', '=', sessionId)
                .where('name', '=', part.name)
                .execute()
            }
            await trx
              .insertInto('exchangeFile')
              .values({ sessionId, name: part.name, seq: part.seq, size: part.bytes.length, bytes: part.bytes })
              .execute()
          }
        },
        UNTIL_THE_ANSWER,
      )
      pending.length = 0
      pendingBytes = 0
      await letOthersWrite(db, performance.now() - started)
    }
    try {
      for (const entry of entries) {
        if (entry.fileName.endsWith('/')) continue
        const name = checkedName(entry.fileName)
        // Stored a mebibyte at a time as it inflates, each its own short write; an entry replaces a
        // file of its name. Named in `seen` before its first part, so a refusal drops what was stored.
        const replace = !seen.has(name)
        let seq = seen.get(name) ?? 0
        seen.set(name, seq)
        for await (const part of inflatedParts(zip, reader, archive.name, entry)) {
          pending.push({ name, seq, bytes: part, replace: replace && seq === 0 })
          seq++
          pendingBytes += part.length
          if (pending.length >= UNPACK_BATCH.entries || pendingBytes >= UNPACK_BATCH.bytes) await flush()
        }
        seen.set(name, seq)
      }
      await flush()
    } catch (error) {
      // Nothing of a refused archive stays: the entries stored so far go with it.
      zip.close()
      await dropFiles(db, sessionId, [...seen.keys(), archive.name])
      throw error
    }
    zip.close()
    await dropFiles(db, sessionId, [archive.name])
  }
  return archives.map((a) => a.name)
}
