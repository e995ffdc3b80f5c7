// Long work done in slices (the route map's load and patches, route-map-load.ts and
// route-map-patch.ts): whenever the work has held the event loop for SLICE_MS, it lets every
// waiting request and timer run before it goes on, so a lead or a page waits at most one slice.
import { performance } from 'node:perf_hooks'

/** How long the work holds the event loop at most before it lets others run, ms */
export const SLICE_MS = 10

/** Lets every waiting request and timer run when the work has held the event loop for SLICE_MS. */
export class Slices {
  private since = performance.now()

  /** budgetMs: how long a slice may hold the event loop (0 lets others run at every step) */
  constructor(private readonly budgetMs = SLICE_MS) {}

  async next(): Promise<void> {
    if (performance.now() - this.since < this.budgetMs) return
    await new Promise((resolve) => setImmediate(resolve))
    this.since = performance.now()
  }
}
