import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { encodeRecord, JournalFullError, LeadJournal } from './journal'

interface Entry {
  idempotencyKey: string
  username: string
}

let dir: string
let warnings: object[]
const log = { warn: (details: object) => void warnings.push(details), error: () => {} }
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrina-journal-'))
  warnings = []
})
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }))

/** A consumer that, like the lead intake, stores each idempotency key once. */
function store() {
  const rows = new Map<string, Entry>()
  return { rows, put: async (entry: Entry) => void rows.set(entry.idempotencyKey, entry) }
}

const entry = (n: number): Entry => ({ idempotencyKey: `key-${n}`, username: `Иван ${n}` })

describe('the lead journal', () => {
  it('keeps appended leads on disk until a drain stores each of them, then is empty', async () => {
    const journal = new LeadJournal<Entry>(dir, log)
    for (let n = 1; n <= 3; n++) await journal.append(entry(n))
    expect(journal.size()).toBeGreaterThan(0)
    // A fresh object for the same process reads what the first wrote: the records are on disk.
    const db = store()
    expect(await new LeadJournal<Entry>(dir, log).drain(db.put)).toEqual({ stored: 3, skipped: 0, deadLetters: 0 })
    expect([...db.rows.keys()]).toEqual(['key-1', 'key-2', 'key-3'])
    expect(journal.size()).toBe(0)
    expect(await journal.drain(db.put)).toEqual({ stored: 0, skipped: 0, deadLetters: 0 })
  })

  it('skips a torn last record with a log line and replays the whole ones', async () => {
    const journal = new LeadJournal<Entry>(dir, log)
    await journal.append(entry(1))
    await journal.append(entry(2))
    const torn = encodeRecord(entry(3))
    fs.appendFileSync(journal.file, torn.slice(0, torn.length - 7))
    const db = store()
    expect(await journal.drain(db.put)).toEqual({ stored: 2, skipped: 1, deadLetters: 0 })
    expect([...db.rows.keys()]).toEqual(['key-1', 'key-2'])
    expect(warnings).toEqual([{ journal: path.basename(journal.file), lines: [3] }])
    expect(JSON.stringify(warnings)).not.toContain('Иван')
  })

  it('skips a record whose bytes changed (its checksum fails) and keeps the others', async () => {
    const journal = new LeadJournal<Entry>(dir, log)
    for (let n = 1; n <= 3; n++) await journal.append(entry(n))
    const text = fs.readFileSync(journal.file, 'utf8').replace('Иван 2', 'Иван 9')
    fs.writeFileSync(journal.file, text)
    const db = store()
    expect(await journal.drain(db.put)).toEqual({ stored: 2, skipped: 1, deadLetters: 0 })
    expect([...db.rows.keys()]).toEqual(['key-1', 'key-3'])
  })

  it('keeps the records from the one the database could not take when it fails mid-drain', async () => {
    const journal = new LeadJournal<Entry>(dir, log)
    for (let n = 1; n <= 4; n++) await journal.append(entry(n))
    const db = store()
    let calls = 0
    const flaky = async (e: Entry) => {
      if (++calls === 3) throw new Error('database unreachable')
      await db.put(e)
    }
    await expect(journal.drain(flaky)).rejects.toThrow('database unreachable')
    expect(db.rows.size).toBe(2)
    expect(await journal.drain(db.put)).toEqual({ stored: 2, skipped: 0, deadLetters: 0 })
    expect([...db.rows.keys()]).toEqual(['key-1', 'key-2', 'key-3', 'key-4'])
    expect(journal.size()).toBe(0)
  })

  it('moves a record refused for good to the dead-letter file and goes on with the others', async () => {
    const transient = (error: unknown) => (error as Error).message === 'database unreachable'
    const journal = new LeadJournal<Entry>(dir, log, { isTransient: transient })
    for (let n = 1; n <= 3; n++) await journal.append(entry(n))
    const db = store()
    const poisoned = async (e: Entry) => {
      if (e.idempotencyKey === 'key-1') throw Object.assign(new Error('invalid byte sequence'), { code: '22021' })
      await db.put(e)
    }
    expect(await journal.drain(poisoned)).toEqual({ stored: 2, skipped: 0, deadLetters: 1 })
    expect([...db.rows.keys()]).toEqual(['key-2', 'key-3'])
    expect(journal.size()).toBe(0)
    const letters = journal.deadLetters()
    expect(letters).toEqual([{ movedAt: expect.any(String), reason: '22021: invalid byte sequence', entry: entry(1) }])
    // The dead letter stays where the owner reads it; a later drain does not take it up again.
    expect(await journal.drain(db.put)).toEqual({ stored: 0, skipped: 0, deadLetters: 0 })
    expect(new LeadJournal<Entry>(dir, log).deadLetters()).toHaveLength(1)
  })

  it('refuses an append past its byte cap, counting the journals of every process', async () => {
    fs.writeFileSync(path.join(dir, 'leads-1.journal'), encodeRecord(entry(0)).repeat(10))
    const record = Buffer.byteLength(encodeRecord(entry(1)))
    const journal = new LeadJournal<Entry>(dir, log, { maxBytes: record * 11 + record - 1 })
    await journal.append(entry(1))
    await expect(journal.append(entry(2))).rejects.toBeInstanceOf(JournalFullError)
  })

  it('drains the journal a dead process left behind and removes it', async () => {
    // No process has this id: the kernel's pid numbers stay far below it.
    const orphan = path.join(dir, 'leads-4194999.journal')
    fs.writeFileSync(orphan, encodeRecord(entry(7)))
    const journal = new LeadJournal<Entry>(dir, log)
    expect(journal.size()).toBeGreaterThan(0)
    const db = store()
    expect(await journal.drain(db.put)).toEqual({ stored: 1, skipped: 0, deadLetters: 0 })
    expect(fs.existsSync(orphan)).toBe(false)
  })

  it('never lets an append land in the middle of a drain', async () => {
    const journal = new LeadJournal<Entry>(dir, log)
    await journal.append(entry(1))
    const db = store()
    const slow = async (e: Entry) => {
      await new Promise((r) => setTimeout(r, 20))
      await db.put(e)
    }
    const draining = journal.drain(slow)
    const appended = journal.append(entry(2))
    await Promise.all([draining, appended])
    // The lead appended during the drain is still waiting, not truncated away.
    expect(await journal.drain(db.put)).toEqual({ stored: 1, skipped: 0, deadLetters: 0 })
    expect([...db.rows.keys()]).toEqual(['key-1', 'key-2'])
  })
})
