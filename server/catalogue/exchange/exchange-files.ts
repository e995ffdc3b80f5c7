// The files 1C sends in an exchange's session (exchange-sessions.ts), kept in the database
// (docs/decisions/032-1c-exchange.md): behind PM2 or a balancer, 1C's calls of one exchange land on
// any process or host, and each finds the parts `file` stored. A file is stored in the parts 1C sent
// it in (at most `file_limit` bytes each) and read back a part at a time (an XML file, staged once:
// exchange-staging.ts) or whole (a picture, an archive); an archive is unpacked once into files of
// the same session (exchange-archives.ts); they go with the session, and with the staged items made
// of them. The exchange's limits are here too.
import { sql } from 'kysely'
import { type Db } from '../../data/db'
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
 * Bytes per stored row of a file unpacked from an archive: no write of the unpacking holds SQLite's
 * lock for the time of megabytes (an 8 MiB row kept a lead on another process waiting), and reading
 * the file back costs a row's memory at a time.
 */
export const STORED_PART_BYTES = 1024 * 1024

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

/** The size of a file of the session; null when 1C did not send it. 413 past the file limit. */
async function fileSize(db: Db, sessionId: string, name: string): Promise<number | null> {
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
  return Number(sizes.size)
}

/** A file of the session, whole; null when 1C did not send it. */
export async function readFile(db: Db, sessionId: string, name: string): Promise<Buffer | null> {
  const parts = await fileParts(db, sessionId, name)
  if (parts === null) return null
  const out: Buffer[] = []
  for await (const part of parts) out.push(part)
  return Buffer.concat(out)
}

/**
 * A file of the session as the parts 1C sent, read one at a time (at most file_limit each), so
 * reading it costs the memory of a part, not of the file; null when 1C did not send it.
 */
export async function fileParts(db: Db, sessionId: string, name: string): Promise<AsyncIterable<Buffer> | null> {
  if ((await fileSize(db, sessionId, name)) === null) return null
  const ids = await db
    .selectFrom('exchangeFile')
    .select('id')
    .where('sessionId', '=', sessionId)
    .where('name', '=', name)
    .orderBy('seq')
    .execute()
  return (async function* () {
    for (const { id } of ids) {
      const part = await db.selectFrom('exchangeFile').select('bytes').where('id', '=', id).executeTakeFirst()
      // A view of the bytes the driver gave, not a copy: a 60 MB file's parts were copied once more
      // each, a mebibyte of memory outside V8's heap per part until a collection freed it.
      if (part) yield Buffer.from(part.bytes.buffer, part.bytes.byteOffset, part.bytes.byteLength)
    }
  })()
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
