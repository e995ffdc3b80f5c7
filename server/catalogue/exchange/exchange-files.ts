// The 1C exchange's sessions and the files 1C sends in them, kept in the database
// (docs/decisions/032-1c-exchange.md): behind PM2 or a balancer, 1C's calls of one exchange land on
// any process or host, and each finds the session `checkauth` made and the parts `file` stored. The
// cookie 1C holds is never stored, only its hash. A file is stored in the parts 1C sent it in
// (at most `file_limit` bytes each) and read back whole when it is imported; an archive is unpacked
// once into files of the same session; everything goes when the session ends or expires.
import { createHash, randomBytes } from 'node:crypto'
import { sql } from 'kysely'
import yauzl from 'yauzl'
import { writeTransaction, type Db } from '../../data/db'
import { letOthersWrite } from '../import-claim'

/** What one transaction of an archive's unpacking writes at most */
const UNPACK_BATCH = { entries: 100, bytes: 1024 * 1024 }
import { HttpError } from '../../http/http-error'

export const EXCHANGE_LIMITS = Object.freeze({
  /** What `init` tells 1C: the largest part of a file per request (below the route's body limit) */
  fileLimit: 8 * 1024 * 1024,
  /** The route's body limit */
  bodyLimit: 9 * 1024 * 1024,
  /** Everything one session may store, archives unpacked included */
  sessionBytes: 512 * 1024 * 1024,
  /** One file read back whole for import */
  fileBytes: 256 * 1024 * 1024,
  /** Entries of one archive */
  zipEntries: 50_000,
  /** How long a session lives after checkauth */
  sessionMs: 24 * 60 * 60 * 1000,
})

export const COOKIE_NAME = 'vitrina_1c'

const hashOf = (cookie: string) => createHash('sha256').update(cookie).digest('hex')

export interface ExchangeSession {
  readonly id: string
  readonly runId: number | null
  readonly state: string | null
}

/** A new session: the cookie 1C sends back on every later call. Expired sessions and their files go. */
export async function openSession(db: Db, now: Date): Promise<string> {
  const cookie = randomBytes(32).toString('base64url')
  const at = now.toISOString()
  const expired = await db.selectFrom('exchangeSession').select('id').where('expiresAt', '<', at).execute()
  for (const { id } of expired) await dropSession(db, id)
  await db
    .insertInto('exchangeSession')
    .values({
      id: hashOf(cookie),
      createdAt: at,
      expiresAt: new Date(now.getTime() + EXCHANGE_LIMITS.sessionMs).toISOString(),
      runId: null,
      state: null,
    })
    .execute()
  return cookie
}

/** The session a cookie names, or null when there is none or it expired. */
export async function findSession(db: Db, cookie: string | undefined, now: Date): Promise<ExchangeSession | null> {
  if (!cookie || cookie.length > 200) return null
  const row = await db
    .selectFrom('exchangeSession')
    .select(['id', 'runId', 'state', 'expiresAt'])
    .where('id', '=', hashOf(cookie))
    .executeTakeFirst()
  if (!row || row.expiresAt < now.toISOString()) return null
  return { id: row.id, runId: row.runId, state: row.state }
}

export async function dropSession(db: Db, id: string): Promise<void> {
  await db.deleteFrom('exchangeFile').where('sessionId', '=', id).execute()
  await db.deleteFrom('exchangeSession').where('id', '=', id).execute()
}

/** `init`: the session starts over, without files or an import under way. */
export async function resetSession(db: Db, id: string): Promise<void> {
  await db.deleteFrom('exchangeFile').where('sessionId', '=', id).execute()
  await db.updateTable('exchangeSession').set({ state: null, runId: null }).where('id', '=', id).execute()
}

/**
 * A file name as 1C sends it, checked: relative, inside the session (`import_files/ab/x.jpg` is fine;
 * `..`, an absolute path, a drive or a control character is refused). Backslashes read as slashes.
 */
export function checkedName(raw: string | undefined): string {
  const name = (raw ?? '').replace(/\\/g, '/')
  const segments = name.split('/')
  if (
    !name ||
    name.length > 300 ||
    name.startsWith('/') ||
    /^[A-Za-z]:/.test(name) ||
    // eslint-disable-next-line no-control-regex
    /[\u0000-\u001f\u007f]/.test(name) ||
    segments.some((s) => s === '' || s === '.' || s === '..')
  ) {
    throw new HttpError(400, 'Недопустимое имя файла: ожидается путь внутри обмена', 'bad_file_name')
  }
  return name
}

async function storedBytes(db: Db, sessionId: string): Promise<number> {
  const row = await db
    .selectFrom('exchangeFile')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>('size'), sql<number>`0`).as('total'))
    .where('sessionId', '=', sessionId)
    .executeTakeFirstOrThrow()
  return Number(row.total)
}

/** `file`: appends a part to the named file of the session. */
export async function appendFile(db: Db, sessionId: string, name: string, bytes: Buffer): Promise<void> {
  if ((await storedBytes(db, sessionId)) + bytes.length > EXCHANGE_LIMITS.sessionBytes) {
    throw new HttpError(413, 'Обмен превысил допустимый объём файлов', 'exchange_too_large')
  }
  const last = await db
    .selectFrom('exchangeFile')
    .select((eb) => eb.fn.max('seq').as('seq'))
    .where('sessionId', '=', sessionId)
    .where('name', '=', name)
    .executeTakeFirst()
  await db
    .insertInto('exchangeFile')
    .values({ sessionId, name, seq: Number(last?.seq ?? -1) + 1, size: bytes.length, bytes })
    .execute()
}

/** The session's files: name and size, in the order they first arrived. */
export async function listFiles(db: Db, sessionId: string): Promise<{ name: string; size: number }[]> {
  const rows = await db
    .selectFrom('exchangeFile')
    .select((eb) => ['name', eb.fn.sum<number | string>('size').as('size'), eb.fn.min('id').as('first')])
    .where('sessionId', '=', sessionId)
    .groupBy('name')
    .execute()
  return rows
    .sort((a, b) => Number(a.first) - Number(b.first))
    .map((row) => ({ name: row.name, size: Number(row.size) }))
}

/** A file of the session, whole; null when 1C did not send it. */
export async function readFile(db: Db, sessionId: string, name: string): Promise<Buffer | null> {
  const sizes = await db
    .selectFrom('exchangeFile')
    .select((eb) => eb.fn.sum<number | string>('size').as('size'))
    .where('sessionId', '=', sessionId)
    .where('name', '=', name)
    .executeTakeFirst()
  if (sizes?.size == null) return null
  if (Number(sizes.size) > EXCHANGE_LIMITS.fileBytes) {
    throw new HttpError(413, `Файл ${name} больше допустимого размера`, 'exchange_too_large')
  }
  const parts = await db
    .selectFrom('exchangeFile')
    .select('bytes')
    .where('sessionId', '=', sessionId)
    .where('name', '=', name)
    .orderBy('seq')
    .execute()
  return Buffer.concat(parts.map((p) => Buffer.from(p.bytes)))
}

/** Drops the named files of the session, or all of them. */
export async function dropFiles(db: Db, sessionId: string, names?: readonly string[]): Promise<void> {
  if (names === undefined) {
    await db.deleteFrom('exchangeFile').where('sessionId', '=', sessionId).execute()
    return
  }
  for (let i = 0; i < names.length; i += 500) {
    await db
      .deleteFrom('exchangeFile')
      .where('sessionId', '=', sessionId)
      .where('name', 'in', names.slice(i, i + 500))
      .execute()
  }
}

const zipError = (message: string) => new HttpError(422, message, 'bad_archive')

function openZip(bytes: Buffer): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) =>
    yauzl.fromBuffer(bytes, { lazyEntries: true, validateEntrySizes: true, strictFileNames: false }, (error, zip) =>
      error ? reject(zipError(`Архив повреждён: ${error.message}`)) : resolve(zip),
    ),
  )
}

/**
 * Unpacks the session's archives (`*.zip`) into files of the session, once: an archive is deleted
 * when its entries are stored. Refused before a byte is inflated when the entries or their declared
 * sizes are past the limits; while inflating, an entry that yields more than it declared is refused
 * too (a zip bomb). Returns the names of the archives unpacked.
 */
export async function unpackArchives(db: Db, sessionId: string): Promise<string[]> {
  const archives = (await listFiles(db, sessionId)).filter((f) => f.name.toLowerCase().endsWith('.zip'))
  for (const archive of archives) {
    const bytes = (await readFile(db, sessionId, archive.name))!
    const budget = EXCHANGE_LIMITS.sessionBytes - (await storedBytes(db, sessionId))
    const zip = await openZip(bytes)
    if (zip.entryCount > EXCHANGE_LIMITS.zipEntries) {
      zip.close()
      throw zipError(`В архиве больше ${EXCHANGE_LIMITS.zipEntries} файлов`)
    }
    const entries = await new Promise<yauzl.Entry[]>((resolve, reject) => {
      const list: yauzl.Entry[] = []
      let declared = 0
      zip.on('entry', (entry: yauzl.Entry) => {
        declared += entry.uncompressedSize
        if (declared > budget) {
          zip.close()
          reject(zipError('Архив распаковывается в слишком большой объём'))
          return
        }
        list.push(entry)
        zip.readEntry()
      })
      zip.on('end', () => resolve(list))
      zip.on('error', (error: Error) => reject(zipError(`Архив повреждён: ${error.message}`)))
      zip.readEntry()
    })
    const seen = new Map<string, number>()
    // A batch of entries per transaction, SQLite's write lock left free between two (as an import's
    // steps do): a thousand pictures, each its own commit, kept other processes' leads polling for it.
    const pending: { name: string; seq: number; bytes: Buffer; replace: boolean }[] = []
    let pendingBytes = 0
    const flush = async () => {
      if (pending.length === 0) return
      const started = performance.now()
      await writeTransaction(db, async (trx) => {
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
      })
      pending.length = 0
      pendingBytes = 0
      await letOthersWrite(db, performance.now() - started)
    }
    try {
      for (const entry of entries) {
        if (entry.fileName.endsWith('/')) continue
        const name = checkedName(entry.fileName)
        const data = await new Promise<Buffer>((resolve, reject) => {
          zip.openReadStream(entry, (error, stream) => {
            if (error) return reject(zipError(`Архив повреждён: ${error.message}`))
            const chunks: Buffer[] = []
            let total = 0
            stream.on('data', (chunk: Buffer) => {
              total += chunk.length
              if (total > entry.uncompressedSize) {
                stream.destroy(zipError('Архив распаковывается в больший объём, чем заявлено'))
                return
              }
              chunks.push(chunk)
            })
            stream.on('error', (e: Error) =>
              reject(e instanceof HttpError ? e : zipError(`Архив повреждён: ${e.message}`)),
            )
            stream.on('end', () => resolve(Buffer.concat(chunks)))
          })
        })
        // Stored in parts of at most file_limit, as if 1C had sent them; an entry replaces a file of its name.
        let seq = seen.get(name) ?? 0
        for (let offset = 0; offset < data.length || offset === 0; offset += EXCHANGE_LIMITS.fileLimit) {
          const bytes = data.subarray(offset, offset + EXCHANGE_LIMITS.fileLimit)
          pending.push({ name, seq, bytes, replace: seq === 0 && !seen.has(name) })
          seq++
          pendingBytes += bytes.length
          if (pending.length >= UNPACK_BATCH.entries || pendingBytes >= UNPACK_BATCH.bytes) await flush()
          if (data.length === 0) break
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
