// A process's heap held tight while it imports (issue 43, docs/decisions/032-1c-exchange.md,
// "Issue 43: memory and leads" and "Files in rows of a mebibyte"). While a process allocates fast,
// V8 lets its old generation grow up to 4× what the last full collection kept alive: a 1C import of
// 110,000 products left hundreds of MB of its dead batches in the heap at a time (RSS +330 MiB;
// PM2 restarts a process past 512 MB). While an import runs here the heap may grow only 20 % past
// that (RSS +114–151 MiB); otherwise V8 chooses, since more frequent full collections lengthen the
// slowest of the pages and leads it serves. V8 reads the flag at each collection, so it can be set
// and unset as imports come and go.
//
// The flag stays set for a while after the last call: the limit a collection sets lasts until the
// next one, so a collection that ends between two of 1C's calls (or in `complete`) with V8's own
// factor may let the next file's staging fill up to 4× the live heap before anything is collected
// (the likeliest reading of one +307 MiB peak; none over +181 in 32 phases since).
import v8 from 'node:v8'

/** How far the old generation may grow past its live size during an import, percent */
const IMPORT_HEAP_GROWING_PERCENT = 20

/** How long the heap stays tight after the last call: 1C's next one comes within seconds */
const LINGER_MS = 30_000

let running = 0
let tight = false
let linger: NodeJS.Timeout | null = null

function setTight(on: boolean): void {
  if (tight === on) return
  tight = on
  // 0: V8's own choice again
  v8.setFlagsFromString(`--heap-growing-percent=${on ? IMPORT_HEAP_GROWING_PERCENT : 0}`)
}

/** Runs `work` with the heap held tight (see the file's head); calls may overlap. */
export async function withTightHeap<T>(work: () => Promise<T>): Promise<T> {
  if (linger !== null) clearTimeout(linger)
  linger = null
  running++
  setTight(true)
  try {
    return await work()
  } finally {
    if (--running === 0) {
      linger = setTimeout(() => {
        linger = null
        if (running === 0) setTight(false)
      }, LINGER_MS)
      linger.unref()
    }
  }
}
