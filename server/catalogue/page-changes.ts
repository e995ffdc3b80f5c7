// Which kept pages a write changed (issue 34, docs/decisions/033-selective-invalidation.md), from
// each touched record as it was before the write and as it is after. The rule, conservative where
// it is not sure:
//   - a product: its own page and cards (`r`), its section's lists before and after (`l`), the
//     featured list if it was or is featured; if its place, title, order or publication changed
//     (or it was created or deleted), its sections' counts (`c`) and the home page's tree;
//   - a section whose own text, meta or picture changed: its page and its cards (`r`);
//   - anything else drops every page: a section created, deleted, moved, renamed, reordered, hidden
//     or shown (the menu, the breadcrumbs and the URLs under it), an index record (the header and
//     footer), a document or text page (the footer's links, the cookie notice), a record of another
//     type or one that is not there, and a write that said it changes every page.
import {
  childrenTag,
  FEATURED_TAG,
  listingTag,
  placeTag,
  recordTag,
  TREE_TAG,
  type PagesChanged,
} from '../../src/site/page-tags'

/** A touched record's place and what pages show of it besides its own page. */
export interface Placed {
  readonly id: number
  readonly parentId: number | null
  readonly typeId: string
  readonly title: string
  readonly urlFull: string
  readonly sort: number
  readonly published: number
  readonly status: number | null
  readonly visible: number
  /** The product's featured flag; null for a record without a product row */
  readonly featured: number | null
}

function placeChanged(was: Placed | null, is: Placed | null): boolean {
  return (
    !was ||
    !is ||
    was.parentId !== is.parentId ||
    was.title !== is.title ||
    was.urlFull !== is.urlFull ||
    was.sort !== is.sort ||
    was.published !== is.published ||
    was.status !== is.status ||
    was.visible !== is.visible
  )
}

/**
 * What a write changed as the pages see it. `before`: each touched record as it was (null: it did
 * not exist); `after`: as it is now (absent: deleted); `flipped`: records whose visibility the door
 * turned because of a record above them.
 */
export function pagesChanged(
  before: ReadonlyMap<number, Placed | null>,
  after: ReadonlyMap<number, Placed>,
  flipped: readonly number[],
  everyPage: boolean,
): PagesChanged {
  if (everyPage) return 'every page'
  const tags = new Set<string>()
  for (const [id, was] of before) {
    const is = after.get(id) ?? null
    const typeId = was?.typeId ?? is?.typeId
    if (was && is && was.typeId !== is.typeId) return 'every page'
    if (typeId === 'product') {
      const moved = placeChanged(was, is)
      tags.add(recordTag(id))
      for (const row of [was, is]) {
        if (!row) continue
        if (row.parentId !== null) tags.add(listingTag(row.parentId))
        if (moved && row.parentId !== null) tags.add(childrenTag(row.parentId))
        if (row.featured) tags.add(FEATURED_TAG)
      }
      if (moved) tags.add(TREE_TAG).add(placeTag(id))
    } else if (typeId === 'section' && !placeChanged(was, is)) {
      tags.add(recordTag(id))
    } else {
      return 'every page'
    }
  }
  // Turned by a record above it: only a section does that, and it dropped every page above.
  if (flipped.some((id) => !before.has(id))) return 'every page'
  return tags
}
