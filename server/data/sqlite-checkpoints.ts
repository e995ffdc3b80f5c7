// SQLite's checkpoints off the request path (docs/decisions/047-checkpoints-off-the-request-path.md).
// In WAL mode SQLite copies the log back into the database file (a checkpoint: a flush of the log,
// the copy, a flush of the file) right after the commit that leaves the log past 1,000 pages, on
// the thread of whichever connection committed. During a 1C import that was nearly every commit
// of the importing process (25–30 ms each, its event loop held), and now and then the commit of a
// lead on the other process. Here each process checkpoints on a thread of its own, with a
// connection of its own: when an import asks, between two of its transactions (and it waits for
// it, so the log starts over instead of growing), and every CHECKPOINTS.everyMs for the other
// writes. The site's connections checkpoint in their own commits only past
// CHECKPOINTS.backstopPages (the thread stopped, or far behind).
import { Worker } from 'node:worker_threads'
import { SQLITE_DRIVER_PATH, type SQLiteDatabase } from './sqlite-driver'

export const CHECKPOINTS = Object.freeze({
  /** How often the thread checkpoints what was committed since, asked or not */
  everyMs: 1000,
  /** The log's length (pages) at which a connection of the site checkpoints in its own commit */
  backstopPages: 16_000,
})

/** SQLite's own threshold, for a process whose thread stopped */
const SQLITE_DEFAULT_PAGES = 1000

/** What the checkpointing thread is told: the database file and the driver this process loaded */
interface CheckpointerData {
  readonly file: string
  readonly driver: string
  readonly everyMs: number
}

/**
 * The thread's code, as source text: a Worker evaluates it as it is, with no build step or loader
 * in between (a function's own text picks up helpers the compilers add, which the thread lacks).
 * PASSIVE copies what no reader still needs and never waits for a lock: a lead's write goes on
 * beside it. Each message asks for one checkpoint and is answered when it is done. Its connection
 * commits nothing, so it never checkpoints in a commit of its own.
 */
const THREAD = `
const { workerData, parentPort } = require('node:worker_threads')
const Driver = require(workerData.driver)
const db = new Driver(workerData.file, { fileMustExist: true })
db.pragma('wal_autocheckpoint = 0')
function checkpoint() {
  try {
    db.pragma('wal_checkpoint(PASSIVE)')
  } catch {
    // Another checkpoint under way, or the database closing: the next one catches up.
  }
}
setInterval(checkpoint, workerData.everyMs)
parentPort.on('message', () => {
  checkpoint()
  parentPort.postMessage('done')
})
`

/** A process's checkpointing thread, as its writers see it. */
export interface Checkpoints {
  /** Resolves once a checkpoint that started after this call has ended (at once without a thread) */
  now(): Promise<void>
}

/**
 * Checkpoints the database `file` (in WAL mode, opened as `database`) on a thread of this process
 * until `database` is closed. The thread never keeps the process alive. `everyMs` and `driver`:
 * the thread's pace and the driver it loads (this process's), for tests.
 */
export function checkpointOffThread(
  database: SQLiteDatabase,
  file: string,
  { everyMs = CHECKPOINTS.everyMs, driver = SQLITE_DRIVER_PATH }: { everyMs?: number; driver?: string } = {},
): Checkpoints {
  const data: CheckpointerData = { file, driver, everyMs }
  const worker = new Worker(THREAD, { eval: true, workerData: data })
  worker.unref()
  /** Callers waiting for the checkpoint under way, and those waiting for the one after it */
  let running: (() => void)[] | null = null
  let next: (() => void)[] = []
  let stopped = false
  const start = () => {
    running = next
    next = []
    worker.postMessage('checkpoint')
  }
  const settle = () => {
    for (const resolve of running ?? []) resolve()
    running = null
    if (next.length > 0 && !stopped) start()
  }
  /** No thread from now on: whoever waits goes on, and the commits checkpoint as SQLite's own do */
  const stop = () => {
    stopped = true
    if (database.open) database.pragma(`wal_autocheckpoint = ${SQLITE_DEFAULT_PAGES}`)
    for (const resolve of [...(running ?? []), ...next]) resolve()
    running = null
    next = []
  }
  worker.on('message', settle)
  // A thread that fails (a driver that cannot load in it) or ends leaves the checkpoints to the commits.
  worker.on('error', stop)
  worker.on('exit', stop)
  database.pragma(`wal_autocheckpoint = ${CHECKPOINTS.backstopPages}`)
  const close = database.close.bind(database)
  database.close = () => {
    const closed = close()
    stop()
    void worker.terminate()
    return closed
  }
  return {
    now() {
      if (stopped) return Promise.resolve()
      return new Promise<void>((resolve) => {
        next.push(resolve)
        if (!running) start()
      })
    },
  }
}
