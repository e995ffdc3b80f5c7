// The files 1C sends in an exchange's session (exchange-sessions.ts), kept in the database
// (docs/decisions/032-1c-exchange.md): behind PM2 or a balancer, 1C's calls of one exchange land on
// any process or host, and each finds the parts `file` stored. A file is stored in rows of a
// mebibyte, whatever parts 1C sent it in, and read back a row at a time (an XML file, staged once:
// exchange-staging.ts; an archive, read by range where it lies) or whole (a picture within the
// image limit); an archive is unpacked once into files of the same session (exchange-archives.ts);
// they go with the session, and with the staged items made of them. The exchange's limits are here too.
import { randomUUID } from 'node:crypto'
import { sql, type Transaction } from 'kysely'
import { type Db } from '../../data/db'
import type { Database } from '../../data/schema'
import { writeTransaction } from '../../data/write-transaction'
import { isSqlite } from '../../data/sql/dialect'
import { importBudgetMs, letOthersWrite, Pacer, UNTIL_THE_ANSWER } from '../import-claim'
import { HttpError } from '../../http/http-error'

export const EXCHANGE_LIMITS = Object.freeze({
  /** What `init` tells 1C: the largest part of a file per request (below the route's body limit) */
  fileLimit: 8 * 1024 * 1024,
  /** The route's body limit */
  bodyLimit: 9 * 1024 * 1024,
  /** Everything one session may store, archives unpacked included */
  sessionBytes: 512 * 1024 * 1024,
  /** One file of the session (an XML file, a picture, an archive's entry) */
  fileBytes: 256 * 1024 * 1024,
  /** Entries of one archive */
  zipEntries: 50_000,
  /** An archive's entry inflating past this many times its compressed size is refused (a zip bomb)… */
  zipRatio: 100,
  /** …once it has inflated past this many bytes (a small file may compress better) */
  zipRatioFrom: 1024 * 1024,
  /** How long a session lives after its last call */
  sessionMs: 24 * 60 * 60 * 1000,
  /** Sessions open at once: a new checkauth past it ends the least recently used one */
  sessions: 10,
})

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

export async function storedBytes(db: Db, sessionId: string): Promise<number> {
  const row = await db
    .selectFrom('exchangeFile')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>('size'), sql<number>`0`).as('total'))
    .where('sessionId', '=', sessionId)
    .executeTakeFirstOrThrow()
  return Number(row.total)
}

/**
 * Bytes per stored row of a file, sent by 1C or unpacked from an archive: no write of the unpacking
 * holds SQLite's lock for the time of megabytes (an 8 MiB row kept a lead on another process
 * waiting), and reading the file back costs a row's memory at a time.
 */
export const STORED_PART_BYTES = 1024 * 1024

/** Marks a part still arriving: its rows' name is the file's, this, and a random id */
const INCOMING = '\u0001incoming\u0001'

/**
 * `file`: appends what 1C sent (up to file_limit) to the named file of the session, in rows of
 * STORED_PART_BYTES, all or none. Kept as one row, an 8 MiB part was read back as one: on
 * PostgreSQL a 16 MB hex string and a reply buffer doubled up to 16 MiB, 50 MB of the process's
 * memory in a second for the archive of a 110,000-product exchange. Each row is a transaction of its
 * own, under a name no file of the session can have (checkedName refuses control characters), and
 * the last one gives the rows their file's name: in one transaction, SQLite's write lock was held
 * for the whole part's write and its flush to the disk (7 MiB: 38–50 ms on an idle machine, against
 * 11–15 ms for a row), while a lead on another process waited for it.
 */
export async function appendFile(db: Db, sessionId: string, name: string, bytes: Buffer): Promise<void> {
  if ((await storedBytes(db, sessionId)) + bytes.length > EXCHANGE_LIMITS.sessionBytes) {
    throw new HttpError(413, 'Обмен превысил допустимый объём файлов', 'exchange_too_large')
  }
  // A part of a row or less goes in as it is; a larger one arrives under another name first.
  const single = bytes.length <= STORED_PART_BYTES
  const incoming = single ? name : `${name}${INCOMING}${randomUUID()}`
  const nextSeq = async (trx: Transaction<Database>) => {
    const last = await trx
      .selectFrom('exchangeFile')
      .select((eb) => eb.fn.max('seq').as('seq'))
      .where('sessionId', '=', sessionId)
      .where('name', '=', name)
      .executeTakeFirst()
    return Number(last?.seq ?? -1) + 1
  }
  if (single) {
    await writeTransaction(db, async (trx) => {
      const seq = await nextSeq(trx)
      await trx.insertInto('exchangeFile').values({ sessionId, name, seq, size: bytes.length, bytes }).execute()
    })
    return
  }
  try {
    for (let offset = 0, seq = 0; offset < bytes.length || offset === 0; offset += STORED_PART_BYTES) {
      const part = bytes.subarray(offset, offset + STORED_PART_BYTES)
      const started = performance.now()
      await writeTransaction(db, (trx) =>
        trx
          .insertInto('exchangeFile')
          .values({ sessionId, name: incoming, seq: seq++, size: part.length, bytes: part })
          .execute(),
      )
      await letOthersWrite(db, performance.now() - started)
    }
    await writeTransaction(db, async (trx) => {
      const first = await nextSeq(trx)
      await trx
        .updateTable('exchangeFile')
        .set((eb) => ({ name, seq: eb('seq', '+', first) }))
        .where('sessionId', '=', sessionId)
        .where('name', '=', incoming)
        .execute()
    })
  } catch (error) {
    // What this call stored goes with it; after a crash, with the session's files (init, complete, expiry).
    await db
      .deleteFrom('exchangeFile')
      .where('sessionId', '=', sessionId)
      .where('name', '=', incoming)
      .execute()
      .catch(() => {})
    throw error
  }
}

/** The session's files: name and size, in the order they first arrived. */
export async function listFiles(db: Db, sessionId: string): Promise<{ name: string; size: number }[]> {
  const rows = await db
    .selectFrom('exchangeFile')
    .select((eb) => ['name', eb.fn.sum<number | string>('size').as('size'), eb.fn.min('id').as('first')])
    .where('sessionId', '=', sessionId)
    .where('name', 'not like', `%${INCOMING}%`)
    .groupBy('name')
    .execute()
  return rows
    .sort((a, b) => Number(a.first) - Number(b.first))
    .map((row) => ({ name: row.name, size: Number(row.size) }))
}

/** A file of the session as it is stored: its size, and its bytes read a part at a time */
export interface StoredFile {
  readonly size: number
  /** The file's rows, in order, one read at a time (a row is at most STORED_PART_BYTES) */
  parts(): AsyncGenerator<Buffer>
  /**
   * The bytes from `start` up to `end`, as views of the parts that hold them: an archive is read
   * where it lies, as its reader asks. The two parts read last are kept, so reading an archive's
   * entries in order reads each part about once.
   */
  range(start: number, end: number): AsyncGenerator<Buffer>
  /** The whole file (a picture: check `size` first) */
  whole(): Promise<Buffer>
}

/** Parts of a file kept by `range` */
const KEPT_PARTS = 2

/**
 * A file of the session, to read a part at a time, so reading it costs the memory of a part or two,
 * never of the file; null when 1C did not send it. 413 past the file limit.
 */
export async function storedFile(db: Db, sessionId: string, name: string): Promise<StoredFile | null> {
  const rows = await db
    .selectFrom('exchangeFile')
    .select(['id', 'size'])
    .where('sessionId', '=', sessionId)
    .where('name', '=', name)
    .orderBy('seq')
    .execute()
  if (rows.length === 0) return null
  /** Where each part starts in the file */
  const starts: number[] = []
  let size = 0
  for (const row of rows) {
    starts.push(size)
    size += row.size
  }
  if (size > EXCHANGE_LIMITS.fileBytes) {
    throw new HttpError(413, `Файл ${name} больше допустимого размера`, 'exchange_too_large')
  }
  const kept = new Map<number, Promise<Buffer>>()
  const part = (index: number): Promise<Buffer> => {
    const known = kept.get(index)
    kept.delete(index)
    const bytes = known ?? readPart(db, rows[index].id)
    kept.set(index, bytes)
    if (kept.size > KEPT_PARTS) kept.delete(kept.keys().next().value!)
    return bytes
  }
  async function* parts() {
    for (const row of rows) yield await readPart(db, row.id)
  }
  return {
    size,
    parts,
    async *range(start, end) {
      // The last part that starts at or before `start`, then each part up to `end`.
      let index = 0
      for (let low = 0, high = starts.length - 1; low <= high;) {
        const middle = (low + high) >> 1
        if (starts[middle] <= start) [index, low] = [middle, middle + 1]
        else high = middle - 1
      }
      for (; index < rows.length && starts[index] < end; index++) {
        const bytes = await part(index)
        const from = Math.max(0, start - starts[index])
        const to = Math.min(bytes.length, end - starts[index])
        if (to > from) yield bytes.subarray(from, to)
      }
    },
    whole: async () => {
      const out: Buffer[] = []
      for await (const bytes of parts()) out.push(bytes)
      return Buffer.concat(out)
    },
  }
}

async function readPart(db: Db, id: number): Promise<Buffer> {
  const { bytes } = await db.selectFrom('exchangeFile').select('bytes').where('id', '=', id).executeTakeFirstOrThrow()
  // A view of the bytes the driver gave, not a copy: a 60 MB file's parts were copied once more
  // each, a mebibyte of memory outside V8's heap per part until a collection freed it.
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
}

/** Rows of each table a drop's first step deletes: staged items are small, a file's part a mebibyte */
const DROP_FIRST = { exchangeStaged: 500, exchangeFile: 2 } as const

/**
 * Drops the named files of the session, or all of them, with their staged items
 * (exchange-staging.ts). On SQLite in short transactions paced like an import's steps: at 110,000
 * products a session holds 60 MB of parts and 220,000 staged items, and one DELETE of them held the
 * write lock for 270 ms and the process for 480 (a lead on another process waited it out).
 * PostgreSQL locks only the rows it deletes, which nothing else reads, and waits without holding
 * the process: one statement a table.
 */
export async function dropFiles(db: Db, sessionId: string, names?: readonly string[]): Promise<void> {
  for (let i = 0; i < (names?.length ?? 1); i += 500) {
    const part = names?.slice(i, i + 500)
    await dropRows(db, 'exchangeStaged', sessionId, part)
    await dropRows(db, 'exchangeFile', sessionId, part)
  }
}

/** Drops what the session staged of the file `name` (exchange-staging.ts, before it stages it anew). */
export function dropStaged(db: Db, sessionId: string, name: string): Promise<void> {
  return dropRows(db, 'exchangeStaged', sessionId, [name])
}

/** The session's rows of `table`, of the files named, or all (see dropFiles). */
async function dropRows(
  db: Db,
  table: 'exchangeStaged' | 'exchangeFile',
  sessionId: string,
  names: readonly string[] | undefined,
): Promise<void> {
  const of = sql`${sql.table(table)} where "sessionId" = ${sessionId}${
    names ? sql` and ${sql.ref(table === 'exchangeFile' ? 'name' : 'file')} in (${sql.join(names)})` : sql``
  }`
  if (!isSqlite(db)) {
    await sql`delete from ${of}`.execute(db)
    return
  }
  const pacer = new Pacer(DROP_FIRST[table], 1, 20_000, importBudgetMs(db))
  for (;;) {
    const size = pacer.size
    const start = performance.now()
    const deleted = await writeTransaction(
      db,
      async (trx) => {
        const result =
          await sql`delete from ${sql.table(table)} where rowid in (select rowid from ${of} limit ${size})`.execute(trx)
        return Number(result.numAffectedRows ?? 0)
      },
      UNTIL_THE_ANSWER,
    )
    if (deleted < size) return
    const ms = performance.now() - start
    pacer.next(size, ms)
    await letOthersWrite(db, ms)
  }
}
