// SQLite's checkpoints off the request path (docs/decisions/047-checkpoints-off-the-request-path.md).
// In WAL mode SQLite copies the log back into the database file (a checkpoint: a flush of the log,
// the copy, a flush of the file) right after the commit that leaves the log past 1,000 pages, on
// the thread of whichever connection committed. During a 1C import that was nearly every commit
// of the importing process (25–30 ms each, its event loop held), and now and then the commit of a
// lead on the other process. Here each process checkpoints on one thread of its own, with a
// connection of its own per database file: when an import asks, between two of its transactions
// (and it waits for it, so the log starts over instead of growing), and every CHECKPOINTS.everyMs
// for the other writes. The site's connections checkpoint in their own commits only past
// CHECKPOINTS.backstopPages (the thread stopped, or far behind).
import { Worker } from 'node:worker_threads'
import { SQLITE_DRIVER_PATH, type SQLiteDatabase } from './sqlite-driver'

export const CHECKPOINTS = Object.freeze({
  /** How often the thread checkpoints what was committed since, asked or not */
  everyMs: 1000,
  /** The log's length (pages) at which a connection of the site checkpoints in its own commit */
  backstopPages: 16_000,
})

/** SQLite's own threshold, for a database the thread cannot serve */
const SQLITE_DEFAULT_PAGES = 1000

/** How long closing a database waits for the thread to close its connection (it ends a checkpoint first) */
const CLOSE_WAIT_MS = 2000

/** What the thread is told: open a connection, checkpoint it now, close it. */
type Request =
  | {
      readonly op: 'open'
      readonly id: number
      readonly file: string
      readonly driver: string
      readonly everyMs: number
    }
  | { readonly op: 'checkpoint'; readonly id: number }
  | { readonly op: 'close'; readonly id: number; readonly closed: Int32Array }

/** What it answers: a checkpoint done, or a connection it could not open. */
type Reply = { readonly op: 'done'; readonly id: number } | { readonly op: 'failed'; readonly id: number }

/**
 * The thread's code, as source text: a Worker evaluates it as it is, with no build step or loader
 * in between (a function's own text picks up helpers the compilers add, which the thread lacks).
 * PASSIVE copies what no reader still needs and never waits for a lock: a lead's write goes on
 * beside it. Its connections commit nothing, so none checkpoints in a commit of its own. The thread
 * is never terminated from outside: a connection is closed by a message, between two checkpoints,
 * and the thread ends with the process. It says when a connection is closed through shared
 * memory, which the closing thread waits on (closeOnThread).
 */
const THREAD = `
const { parentPort } = require('node:worker_threads')
const connections = new Map()
function checkpoint(connection) {
  try {
    connection.db.pragma('wal_checkpoint(PASSIVE)')
  } catch {
    // Another checkpoint under way, or a file gone: the next one catches up.
  }
}
function open({ id, file, driver, everyMs }) {
  try {
    const Driver = require(driver)
    const db = new Driver(file, { fileMustExist: true })
    db.pragma('wal_autocheckpoint = 0')
    const connection = { db, timer: null }
    connection.timer = setInterval(() => checkpoint(connection), everyMs)
    connections.set(id, connection)
  } catch {
    parentPort.postMessage({ op: 'failed', id })
  }
}
function close(id, closed) {
  const connection = connections.get(id)
  connections.delete(id)
  if (connection) {
    clearInterval(connection.timer)
    try {
      connection.db.close()
    } catch {}
  }
  Atomics.store(closed, 0, 1)
  Atomics.notify(closed, 0)
}
parentPort.on('message', (request) => {
  if (request.op === 'open') open(request)
  else if (request.op === 'close') close(request.id, request.closed)
  else {
    const connection = connections.get(request.id)
    if (connection) checkpoint(connection)
    parentPort.postMessage({ op: 'done', id: request.id })
  }
})
`

/** A database's checkpoints, as its writers see them. */
export interface Checkpoints {
  /** Resolves once a checkpoint that started after this call has ended (at once without the thread) */
  now(): Promise<void>
}

/** One database the thread serves: the callers waiting for the checkpoint under way and the next */
interface Client {
  readonly database: SQLiteDatabase
  running: (() => void)[] | null
  next: (() => void)[]
  stopped: boolean
}

/** The process's thread, started with the first SQLite database; null once it failed */
let thread: Worker | null | undefined
const clients = new Map<number, Client>()
let lastId = 0

function post(request: Request): void {
  thread?.postMessage(request)
}

function startThread(): Worker | null {
  if (thread !== undefined) return thread
  try {
    thread = new Worker(THREAD, { eval: true })
  } catch {
    thread = null
    return null
  }
  thread.unref()
  thread.on('message', (reply: Reply) => {
    const client = clients.get(reply.id)
    if (!client) return
    if (reply.op === 'failed') stop(reply.id, client)
    else settle(reply.id, client)
  })
  // A thread that fails or ends leaves every database's checkpoints to its commits, for good.
  const fail = () => {
    thread = null
    for (const [id, client] of clients) stop(id, client)
  }
  thread.on('error', fail)
  thread.on('exit', fail)
  return thread
}

/**
 * Closes the thread's connection to a database, before the site's own: the site's is then the
 * last, and it ends the log as SQLite always did (copied and removed), with nothing of the thread
 * left to touch the files once the database is closed (a test removes its folder at once). Blocks
 * this thread until the other has closed it, which takes at most the checkpoint under way.
 */
function closeOnThread(id: number): void {
  if (!thread) return
  const closed = new Int32Array(new SharedArrayBuffer(4))
  post({ op: 'close', id, closed })
  Atomics.wait(closed, 0, 0, CLOSE_WAIT_MS)
}

function start(id: number, client: Client): void {
  client.running = client.next
  client.next = []
  post({ op: 'checkpoint', id })
}

function settle(id: number, client: Client): void {
  for (const resolve of client.running ?? []) resolve()
  client.running = null
  if (client.next.length > 0 && !client.stopped) start(id, client)
}

/** No thread for this database from now on: whoever waits goes on, and its commits checkpoint as SQLite's own do */
function stop(id: number, client: Client): void {
  client.stopped = true
  clients.delete(id)
  if (client.database.open) client.database.pragma(`wal_autocheckpoint = ${SQLITE_DEFAULT_PAGES}`)
  for (const resolve of [...(client.running ?? []), ...client.next]) resolve()
  client.running = null
  client.next = []
}

/**
 * Checkpoints the database `file` (in WAL mode, opened as `database`) on the process's thread until
 * `database` is closed. The thread never keeps the process alive. `everyMs` and `driver`: the
 * thread's pace for this file and the driver it loads (this process's), for tests.
 */
export function checkpointOffThread(
  database: SQLiteDatabase,
  file: string,
  { everyMs = CHECKPOINTS.everyMs, driver = SQLITE_DRIVER_PATH }: { everyMs?: number; driver?: string } = {},
): Checkpoints {
  const id = ++lastId
  const client: Client = { database, running: null, next: [], stopped: false }
  if (!startThread()) {
    client.stopped = true
    return { now: () => Promise.resolve() }
  }
  clients.set(id, client)
  database.pragma(`wal_autocheckpoint = ${CHECKPOINTS.backstopPages}`)
  post({ op: 'open', id, file, driver, everyMs })
  const close = database.close.bind(database)
  database.close = () => {
    closeOnThread(id)
    if (!client.stopped) stop(id, client)
    return close()
  }
  return {
    now() {
      if (client.stopped) return Promise.resolve()
      return new Promise<void>((resolve) => {
        client.next.push(resolve)
        if (!client.running) start(id, client)
      })
    },
  }
}
