// The lead journal: where a lead goes when the database is unavailable (PostgreSQL unreachable,
// SQLite busy past its timeout, disk full), so the visitor still gets «Заявка отправлена».
// An append-only file per process, one record a line: `<crc32 hex> <json>\n`, fsynced before the
// intake answers. Draining stores each record through the normal intake, whose idempotency key
// makes a replay after a crash harmless, then truncates the file. A torn or corrupt record is
// skipped with a log line (its position, never its content), never replayed as garbage. A record
// the database refuses for a reason other than being away moves to the dead-letter file, where
// the owner sees it, and the drain goes on (docs/decisions/023-lead-dead-letters-and-idempotency.md).
import fs from 'node:fs'
import path from 'node:path'
import { crc32 } from 'node:zlib'

interface JournalLog {
  warn(details: object, message: string): void
  error(details: object, message: string): void
}

interface JournalOptions {
  /** Bytes all journals of the folder may hold together; an append past it is refused */
  readonly maxBytes?: number
  /** Errors that mean "the database is away": the drain stops and the record waits */
  readonly isTransient?: (error: unknown) => boolean
}

/** A record the database refused for good, as the dead-letter file keeps it. */
export interface DeadLetter<T> {
  /** When it was moved there */
  readonly movedAt: string
  /** Why, in words that carry no personal data (an error code and the driver's message) */
  readonly reason: string
  readonly entry: T
}

interface Decoded<T> {
  readonly records: Array<{ readonly entry: T; readonly line: string }>
  /** Lines that were torn or failed their checksum, by line number */
  readonly skipped: number[]
}

const FILE_PREFIX = 'leads-'
const FILE_SUFFIX = '.journal'
/** Not a journal of a process (no `leads-` prefix): never drained, read by the owner's screens. */
export const DEAD_LETTER_FILE = 'dead-letters.journal'

/** The journal cannot take more: it holds `maxBytes` already. */
export class JournalFullError extends Error {
  readonly code = 'JOURNAL_FULL'
  constructor() {
    super('lead journal full')
  }
}

export function encodeRecord(entry: unknown): string {
  const json = JSON.stringify(entry)
  return `${crc32(json).toString(16).padStart(8, '0')} ${json}\n`
}

/** Parses a journal's text: whole, checksummed lines only. */
function decodeJournal<T>(text: string): Decoded<T> {
  const records: Array<{ entry: T; line: string }> = []
  const skipped: number[] = []
  const lines = text.split('\n')
  // The piece after the last newline is empty for a whole file, or a torn last record.
  const tail = lines.pop() ?? ''
  lines.forEach((line, index) => {
    const match = /^([0-9a-f]{8}) (.*)$/.exec(line)
    if (!match || crc32(match[2]) !== parseInt(match[1], 16)) return void skipped.push(index + 1)
    try {
      records.push({ entry: JSON.parse(match[2]) as T, line: `${line}\n` })
    } catch {
      skipped.push(index + 1)
    }
  })
  if (tail !== '') skipped.push(lines.length + 1)
  return { records, skipped }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** Writes `text` to `file` (opened with `flags`) and returns once it is on disk. */
function writeDurably(file: string, flags: 'a' | 'w', text: string): void {
  const fd = fs.openSync(file, flags)
  try {
    fs.writeSync(fd, text)
    fs.fsyncSync(fd)
  } finally {
    fs.closeSync(fd)
  }
}

/** Writes `text` as the whole file, on disk before it replaces the old one. */
function replaceFile(file: string, text: string): void {
  writeDurably(`${file}.tmp`, 'w', text)
  fs.renameSync(`${file}.tmp`, file)
}

function describeError(error: unknown): string {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown }
  return [typeof code === 'string' ? code : null, typeof message === 'string' ? message : String(error)]
    .filter(Boolean)
    .join(': ')
    .slice(0, 300)
}

export class LeadJournal<T> {
  readonly file: string
  readonly deadLetterFile: string
  private queue: Promise<unknown> = Promise.resolve()

  constructor(
    readonly dir: string,
    private readonly log: JournalLog,
    private readonly options: JournalOptions = {},
  ) {
    this.file = path.join(dir, `${FILE_PREFIX}${process.pid}${FILE_SUFFIX}`)
    this.deadLetterFile = path.join(dir, DEAD_LETTER_FILE)
  }

  /** Appends one record and resolves once it is on disk (fsync); JournalFullError past the cap. */
  append(entry: T): Promise<void> {
    return this.serial(() => {
      const record = encodeRecord(entry)
      const max = this.options.maxBytes
      if (max !== undefined && this.allBytes() + Buffer.byteLength(record) > max) throw new JournalFullError()
      fs.mkdirSync(this.dir, { recursive: true })
      writeDurably(this.file, 'a', record)
    })
  }

  /** Bytes waiting in this process's journal and in those of processes that died. */
  size(): number {
    return this.files().reduce((sum, file) => sum + fs.statSync(file).size, 0)
  }

  /**
   * Stores every waiting record with `store`, in order, then empties the journal. A record whose
   * failure `isTransient` (the database is away) stops the drain: it and the records after it
   * stay, the ones before it are gone. Any other failure moves the record to the dead-letter
   * file and the drain goes on. Journals of processes that died (a PM2 worker killed
   * mid-outage) are drained too.
   */
  drain(store: (entry: T) => Promise<void>): Promise<{ stored: number; skipped: number; deadLetters: number }> {
    return this.serial(async () => {
      const totals = { stored: 0, skipped: 0, deadLetters: 0 }
      for (const file of this.files()) {
        const { records, skipped } = decodeJournal<T>(fs.readFileSync(file, 'utf8'))
        if (skipped.length > 0) {
          this.log.warn(
            { journal: path.basename(file), lines: skipped },
            'lead journal: torn or corrupt records skipped',
          )
        }
        totals.skipped += skipped.length
        for (const [index, { entry }] of records.entries()) {
          try {
            await store(entry)
            totals.stored++
          } catch (error) {
            if (this.options.isTransient?.(error) ?? true) {
              // Still away: keep this record and the ones after it, nothing stored before.
              replaceFile(
                file,
                records
                  .slice(index)
                  .map((record) => record.line)
                  .join(''),
              )
              throw error
            }
            this.moveToDeadLetters(entry, error)
            totals.deadLetters++
          }
        }
        if (file === this.file) replaceFile(file, '')
        else fs.unlinkSync(file)
      }
      return totals
    })
  }

  /** The records the database refused for good, oldest first, each once. */
  deadLetters(): DeadLetter<T>[] {
    if (!fs.existsSync(this.deadLetterFile)) return []
    const { records } = decodeJournal<DeadLetter<T>>(fs.readFileSync(this.deadLetterFile, 'utf8'))
    // A crash between moving a record and rewriting its journal moves it twice: show it once.
    const seen = new Set<string>()
    return records
      .map((record) => record.entry)
      .filter((letter) => {
        const key = JSON.stringify(letter.entry)
        return seen.has(key) ? false : Boolean(seen.add(key))
      })
  }

  /**
   * Removes the dead letters `drop` picks (past the retention period, or one person's on request)
   * and returns how many it removed. The file is rewritten durably; nothing else changes.
   */
  pruneDeadLetters(drop: (letter: DeadLetter<T>) => boolean): Promise<number> {
    return this.serial(() => {
      if (!fs.existsSync(this.deadLetterFile)) return 0
      const { records } = decodeJournal<DeadLetter<T>>(fs.readFileSync(this.deadLetterFile, 'utf8'))
      const kept = records.filter((record) => !drop(record.entry))
      if (kept.length === records.length) return 0
      replaceFile(this.deadLetterFile, kept.map((record) => record.line).join(''))
      return records.length - kept.length
    })
  }

  private moveToDeadLetters(entry: T, error: unknown): void {
    const letter: DeadLetter<T> = { movedAt: new Date().toISOString(), reason: describeError(error), entry }
    writeDurably(this.deadLetterFile, 'a', encodeRecord(letter))
    // The reason only: the record holds personal data, the file is where the owner reads it.
    this.log.error({ reason: letter.reason, file: DEAD_LETTER_FILE }, 'lead journal: record moved to dead letters')
  }

  /** Every process's journal, live or not: what the byte cap counts. */
  private allBytes(): number {
    return this.journalNames().reduce((sum, name) => sum + fs.statSync(path.join(this.dir, name)).size, 0)
  }

  private journalNames(): string[] {
    if (!fs.existsSync(this.dir)) return []
    return fs.readdirSync(this.dir).filter((name) => name.startsWith(FILE_PREFIX) && name.endsWith(FILE_SUFFIX))
  }

  private files(): string[] {
    return this.journalNames()
      .map((name) => ({ name, pid: Number(name.slice(FILE_PREFIX.length, -FILE_SUFFIX.length)) }))
      .filter(({ name, pid }) => path.join(this.dir, name) === this.file || (Number.isInteger(pid) && !isAlive(pid)))
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
