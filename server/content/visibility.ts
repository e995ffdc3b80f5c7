// The one rule for what the public may see of a structure record (docs/decisions/024-public-reads.md):
// it and every record above it are published and not withdrawn. A draft (`published` false) answers
// 404 as if it never existed; a withdrawn record keeps `published` but its `status` takes it off the
// site (410 after «Снять с публикации», or 404). A record under a hidden one answers as that record
// does: a product of a draft section 404, of a withdrawn one 410. Everything public asks here: the
// pages and their breadcrumbs, the route map's children (menus, section tiles, product cards), the
// home page, search, the sitemap, the feed, IndexNow and the model API's scopes.
//
// In memory the rule walks up the route map (stateInTree); in SQL it reads the stored `visible`
// flag, which the write door keeps equal to stateInTree(...) === 'public' for every record
// (content/tree-visibility.ts), so a query's cost does not depend on how deep the record sits.
import type { Expression, ExpressionBuilder, SqlBool } from 'kysely'

/** `status` values that take a record off the site while it stays published. */
const WITHDRAWN_STATUSES = [404, 410] as const

export type PublicState = 'public' | 'missing' | 'gone'

interface Visibility {
  /** A boolean, or the stored 0/1 flag */
  readonly published: boolean | number
  readonly status: number | null
}

/** What the record's own flags make of it, whatever is above it. */
export function ownState(record: Visibility): PublicState {
  if (!record.published) return 'missing'
  if (record.status === 410) return 'gone'
  if (record.status === 404) return 'missing'
  return 'public'
}

/**
 * What the record's URL answers: its page, 404 or 410. Its own state first (a draft stays a draft
 * under a withdrawn section), else the state of the record above it (`parent`: null for a root).
 */
export function stateInTree(record: Visibility, parent: PublicState | null): PublicState {
  const own = ownState(record)
  return own !== 'public' || parent === null ? own : parent
}

/** Whether a state lets the public see the record: in lists, menus, feeds, the API. */
export function isPublic(record: { readonly state: PublicState }): boolean {
  return record.state === 'public'
}

/**
 * The rule as a condition on the `structure` table (unqualified, or under `table`), for queries
 * that select from it: the record's own flags and the `visible` flag its ancestors set.
 */
export function isPublicRecord(eb: ExpressionBuilder<any, any>, table = ''): Expression<SqlBool> {
  const column = (name: string) => (table ? `${table}.${name}` : name)
  return eb.and([
    eb(column('visible'), '=', 1),
    eb(column('published'), '=', 1),
    eb.or([eb(column('status'), 'is', null), eb(column('status'), 'not in', [...WITHDRAWN_STATUSES])]),
  ])
}

/**
 * The state of a record of a tree given as rows, parents resolved through `byId`: each record's
 * state is worked out once, by walking up to the first record whose state is known (or the root).
 */
export function stateResolver<T extends Visibility & { id: number; parentId: number | null }>(
  byId: ReadonlyMap<number, T>,
): (row: T) => PublicState {
  const states = new Map<number, PublicState>()
  return (row) => {
    const known = states.get(row.id)
    if (known) return known
    // The common case, a record whose parent is worked out (or a root): no walk.
    const parent = row.parentId === null ? null : states.get(row.parentId)
    if (parent !== undefined) {
      const state = stateInTree(row, parent)
      states.set(row.id, state)
      return state
    }
    // Walk up to the first record whose state is known (or the root), then come back down.
    const chain: T[] = []
    let cursor: T | undefined = row
    const seen = new Set<number>()
    while (cursor && !states.has(cursor.id) && !seen.has(cursor.id)) {
      seen.add(cursor.id)
      chain.push(cursor)
      cursor = cursor.parentId === null ? undefined : byId.get(cursor.parentId)
    }
    let above: PublicState | null = cursor ? (states.get(cursor.id) ?? null) : null
    for (let i = chain.length - 1; i >= 0; i--) {
      above = stateInTree(chain[i], above)
      states.set(chain[i].id, above)
    }
    return states.get(row.id)!
  }
}
