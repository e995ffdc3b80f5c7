// A process's heap held tight while it imports (issue 43, docs/decisions/032-1c-exchange.md,
// "Issue 43: memory and leads"). While a process allocates fast, V8 lets its old generation grow up
// to 4× what the last full collection kept alive: a 1C import of 110,000 products left hundreds of
// MB of its dead batches in the heap at a time (RSS +330 MiB; PM2 restarts a process past 512 MB).
// While an import runs here the heap may grow only 20 % past that (RSS +114–151 MiB); otherwise
// V8 chooses, since more frequent full collections lengthen the slowest of the pages and leads
// it serves. V8 reads the flag at each collection, so it can be set and unset as imports come and go.
import v8 from 'node:v8'

/** How far the old generation may grow past its live size during an import, percent */
const IMPORT_HEAP_GROWING_PERCENT = 20

let running = 0

/** Runs `work` with the heap held tight (see the file's head); imports may overlap. */
export async function withTightHeap<T>(work: () => Promise<T>): Promise<T> {
  if (running++ === 0) v8.setFlagsFromString(`--heap-growing-percent=${IMPORT_HEAP_GROWING_PERCENT}`)
  try {
    return await work()
  } finally {
    // 0: V8's own choice again
    if (--running === 0) v8.setFlagsFromString('--heap-growing-percent=0')
  }
}
