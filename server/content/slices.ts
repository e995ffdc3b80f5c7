// Long work done in slices (the route map's load, route-map-load.ts): whenever the work has held
// the event loop for SLICE_MS, it lets every waiting request and timer run before it goes on, so a
// lead or a page waits at most one slice.
import { performance } from 'node:perf_hooks'

/** How long the work holds the event loop at most before it lets others run, ms */
export const SLICE_MS = 10

/**
 * A reload while the map before keeps serving (every STRUCTURE_TTL): nobody waits for it, so it
 * holds the event loop 2 ms at most and rests 5 ms after each slice. At 110,000 records on
 * PostgreSQL, read at full pace alongside a 1C exchange, it made the leads of its second wait
 * 130–390 ms (decision 033).
 */
export const BACKGROUND = { budgetMs: 2, pauseMs: 5 } as const

/** Lets every waiting request and timer run when the work has held the event loop for SLICE_MS. */
export class Slices {
  private since = performance.now()

  /**
   * budgetMs: how long a slice may hold the event loop (0 lets others run at every step); pauseMs:
   * how long it then rests (0: until every waiting request and timer ran once), for work nobody
   * waits for, spread thin so it never crowds what they wait for.
   */
  constructor(
    private readonly budgetMs = SLICE_MS,
    private readonly pauseMs = 0,
  ) {}

  async next(): Promise<void> {
    if (performance.now() - this.since < this.budgetMs) return
    await new Promise((resolve) => (this.pauseMs > 0 ? setTimeout(resolve, this.pauseMs) : setImmediate(resolve)))
    this.since = performance.now()
  }
}
