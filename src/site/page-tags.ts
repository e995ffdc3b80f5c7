// What a kept page read, and what a write changed, in one vocabulary (issue 34,
// docs/decisions/033-selective-invalidation.md). A rendering collects the tags of what it read
// (PageReads); the write door works out the tags of what a write changed (server/catalogue/page-changes.ts);
// the page cache drops the pages whose tags meet the write's, or every page when the write changed
// what every page shows (the menu, an index record, a document, a setting).

/** A record's own data: its page, and a card of it on another page (title, picture, price). */
export const recordTag = (id: number): string => `r${id}`
/** A section's list of products in any order or filter: every product under it, data and place. */
export const listingTag = (id: number): string => `l${id}`
/** How many public products a section holds and which (its card's count on another page; the count kept per section, server/site/product-counts.ts). */
export const childrenTag = (id: number): string => `c${id}`
/** Which products are featured, and in what order (the home page's list). */
export const FEATURED_TAG = 'featured'
/** Where any product is, its title and whether it shows (the home page without featured products). */
export const TREE_TAG = 'tree'

/**
 * A record's place changed (its URL, parent, title, order or publication): no page reads it; the
 * route map reloads when it holds that record, and keeps its tree when it does not (a product:
 * server/content/route-rows.ts). Always beside TREE_TAG, which the pages read.
 */
export const placeTag = (id: number): string => `p${id}`

/** The records a change names with one kind of tag: `p` their place (placeTag), `c` their products (childrenTag). */
export function taggedIds(changed: ReadonlySet<string>, kind: 'p' | 'c'): Set<number> {
  const ids = new Set<number>()
  for (const tag of changed) if (tag[0] === kind && /^.\d+$/.test(tag)) ids.add(Number(tag.slice(1)))
  return ids
}

/** What a write changed, as the pages see it: the tags of what it changed, or every page. */
export type PagesChanged = 'every page' | ReadonlySet<string>

/** Whether a page that read `tags` shows something `changed` changed. */
export function isChangedFor(changed: PagesChanged, tags: ReadonlySet<string>): boolean {
  if (changed === 'every page') return true
  const [small, large] = changed.size < tags.size ? [changed, tags] : [tags, changed]
  for (const tag of small) if (large.has(tag)) return true
  return false
}

/** Two changes as one. */
export function joinChanges(a: PagesChanged, b: PagesChanged): PagesChanged {
  if (a === 'every page' || b === 'every page') return 'every page'
  return new Set([...a, ...b])
}

/**
 * The tags one rendering read, collected by the reads themselves (server/site/page-loaders.ts): a
 * page never declares them, so it cannot forget one. What every page shows (the layout: the menu,
 * the index record, the documents' links) is not collected: only a write of every page changes it.
 */
export class PageReads {
  readonly tags = new Set<string>()

  record(id: number): void {
    this.tags.add(recordTag(id))
  }

  add(tag: string): void {
    this.tags.add(tag)
  }
}

/** The error a page meets in development when it shows a record its reads did not collect. */
export class UncollectedReadError extends Error {
  constructor(id: number, url: string) {
    super(
      `The page shows the record ${id} (${url}) but did not collect it as read: a write of that record ` +
        'would leave this page stale in the page cache. Read it through server/site/page-loaders.ts, ' +
        'which records what it reads (docs/decisions/033-selective-invalidation.md).',
    )
    this.name = 'UncollectedReadError'
  }
}

/**
 * Development's check of a page's data against its reads: every record the data shows (any object
 * with a numeric `id` and a `url`: the page itself, a card, a link with its record) must have been
 * collected, or the page throws UncollectedReadError.
 */
export function checkReads(data: unknown, reads: PageReads, depth = 0): void {
  if (typeof data !== 'object' || data === null || depth > 8) return
  if (Array.isArray(data)) {
    for (const item of data) checkReads(item, reads, depth + 1)
    return
  }
  const { id, url } = data as { id?: unknown; url?: unknown }
  if (typeof id === 'number' && typeof url === 'string' && !reads.tags.has(recordTag(id))) {
    throw new UncollectedReadError(id, url)
  }
  for (const value of Object.values(data)) checkReads(value, reads, depth + 1)
}
