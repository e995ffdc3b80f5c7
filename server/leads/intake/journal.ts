// The lead journal: where a lead goes when the database cannot take it (PostgreSQL unreachable,
// SQLite busy past its timeout, disk full), so the visitor still gets «Заявка отправлена».
// An append-only file per process, one record a line: `<crc32 hex> <json>\n`, fsynced before the
// intake answers. Draining stores each record through the normal intake, whose idempotency key
// makes a replay after a crash harmless, then truncates the file. A torn or corrupt record is
// skipped with a log line (its position, never its content), never replayed as garbage.
import fs from 'node:fs'
import path from 'node:path'
import { crc32 } from 'node:zlib'

interface JournalLog {
  warn(details: object, message: string): void
}

interface ReadResult<T> {
  readonly entries: T[]
  /** Lines that were torn or failed their checksum, by line number */
  readonly skipped: number[]
}

const FILE_PREFIX = 'leads-'
const FILE_SUFFIX = '.journal'

export function encodeRecord(entry: unknown): string {
  const json = JSON.stringify(entry)
  return `${crc32(json).toString(16).padStart(8, '0')} ${json}\n`
}

/** Parses a journal's text: whole, checksummed lines only. */
function decodeJournal<T>(text: string): ReadResult<T> {
  const entries: T[] = []
  const skipped: number[] = []
  const lines = text.split('\n')
  // The piece after the last newline is empty for a whole file, or a torn last record.
  const tail = lines.pop() ?? ''
  lines.forEach((line, index) => {
    const match = /^([0-9a-f]{8}) (.*)$/.exec(line)
    if (!match || crc32(match[2]) !== parseInt(match[1], 16)) return void skipped.push(index + 1)
    try {
      entries.push(JSON.parse(match[2]) as T)
    } catch {
      skipped.push(index + 1)
    }
  })
  if (tail !== '') skipped.push(lines.length + 1)
  return { entries, skipped }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

export class LeadJournal<T> {
  readonly file: string
  private queue: Promise<unknown> = Promise.resolve()

  constructor(
    readonly dir: string,
    private readonly log: JournalLog,
  ) {
    this.file = path.join(dir, `${FILE_PREFIX}${process.pid}${FILE_SUFFIX}`)
  }

  /** Appends one record and resolves once it is on disk (fsync). */
  append(entry: T): Promise<void> {
    return this.serial(() => {
      fs.mkdirSync(this.dir, { recursive: true })
      const fd = fs.openSync(this.file, 'a')
      try {
        fs.writeSync(fd, encodeRecord(entry))
        fs.fsyncSync(fd)
      } finally {
        fs.closeSync(fd)
      }
    })
  }

  /** Bytes waiting in this process's journal and in those of processes that died. */
  size(): number {
    return this.files().reduce((sum, file) => sum + fs.statSync(file).size, 0)
  }

  /**
   * Stores every waiting record with `store`, in order, then empties the journal. Stops at the
   * first record `store` cannot take (the database is down again) and keeps the file: records
   * stored before it come again next time, and their idempotency key makes that harmless.
   * Journals of processes that died (a PM2 worker killed mid-outage) are drained too.
   */
  drain(store: (entry: T) => Promise<void>): Promise<{ stored: number; skipped: number }> {
    return this.serial(async () => {
      let stored = 0
      let skipped = 0
      for (const file of this.files()) {
        const { entries, skipped: bad } = decodeJournal<T>(fs.readFileSync(file, 'utf8'))
        if (bad.length > 0) {
          this.log.warn({ journal: path.basename(file), lines: bad }, 'lead journal: torn or corrupt records skipped')
        }
        for (const entry of entries) {
          await store(entry)
          stored++
        }
        skipped += bad.length
        if (file === this.file) {
          const fd = fs.openSync(file, 'r+')
          fs.ftruncateSync(fd, 0)
          fs.fsyncSync(fd)
          fs.closeSync(fd)
        } else {
          fs.unlinkSync(file)
        }
      }
      return { stored, skipped }
    })
  }

  private files(): string[] {
    if (!fs.existsSync(this.dir)) return []
    return fs
      .readdirSync(this.dir)
      .filter((name) => name.startsWith(FILE_PREFIX) && name.endsWith(FILE_SUFFIX))
      .map((name) => ({ name, pid: Number(name.slice(FILE_PREFIX.length, -FILE_SUFFIX.length)) }))
      .filter(({ name, pid }) => path.join(this.dir, name) === this.file || !isAlive(pid))
      .map(({ name }) => path.join(this.dir, name))
      .filter((file) => fs.statSync(file).size > 0)
  }

  /** One journal operation at a time in this process: an append never lands inside a drain. */
  private serial<R>(operation: () => R | Promise<R>): Promise<R> {
    const result = this.queue.then(operation)
    this.queue = result.catch(() => {})
    return result
  }
}
