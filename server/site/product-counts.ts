// How many public products each section shows (its page's list, its tile's count on another page).
// The route map holds no products (server/content/route-rows.ts): a section's count is read from
// its index when a page first asks for it, and kept until a write changes which products the
// section holds (childrenTag, server/catalogue/page-changes.ts). An import's second of writes
// forgets the counts of the sections it touched; nothing is read until a page asks again.
import type { Db } from '../data/db'
import { countPublicProducts } from '../catalogue/products/listing-store'
import { taggedIds, TREE_TAG, type PagesChanged } from '../../src/site/page-tags'

/** Sections per query: well under either database's bound parameters */
const IDS_PER_QUERY = 500

export class ProductCounts {
  private readonly counts = new Map<number, number>()
  /** Bumped by every change: a count read across one is returned, not kept */
  private epoch = 0

  constructor(private readonly db: Db) {}

  /** Forgets the counts a change may have changed: its sections', or every one. */
  forget(changed: PagesChanged): void {
    this.epoch++
    if (changed === 'every page') return this.counts.clear()
    const sections = taggedIds(changed, 'c')
    // A place change that names no section (a log row of an older process): any count may have changed.
    if (sections.size === 0 && changed.has(TREE_TAG)) return this.counts.clear()
    for (const id of sections) this.counts.delete(id)
  }

  /** The public products of each of these sections, by id. */
  async of(sectionIds: readonly number[]): Promise<Map<number, number>> {
    const out = new Map<number, number>()
    const missing: number[] = []
    for (const id of new Set(sectionIds)) {
      const known = this.counts.get(id)
      if (known === undefined) missing.push(id)
      else out.set(id, known)
    }
    const epoch = this.epoch
    for (let i = 0; i < missing.length; i += IDS_PER_QUERY) {
      for (const [id, count] of await countPublicProducts(this.db, missing.slice(i, i + IDS_PER_QUERY))) {
        out.set(id, count)
        if (epoch === this.epoch) this.counts.set(id, count)
      }
    }
    return out
  }
}
