// The one rule for what the public may see of a structure record (docs/decisions/024-public-reads.md):
// it is published and not withdrawn. A draft (`published` false) answers 404 as if it never
// existed; a withdrawn record keeps `published` but its `status` takes it off the site (410 after
// «Снять с публикации», or 404). Everything public asks here: the model API's scopes, the route
// map's children (menus, section tiles, product cards, the home page), the sitemap, the consent text
// and any feed to come. Only the record's own URL tells a withdrawn record from one never made.
import type { Expression, ExpressionBuilder, SqlBool } from 'kysely'

/** `status` values that take a record off the site while it stays published. */
const WITHDRAWN_STATUSES = [404, 410] as const

interface Visibility {
  /** A boolean, or the stored 0/1 flag */
  readonly published: boolean | number
  readonly status: number | null
}

/** What the record's own URL answers: its page, 404 (a draft, or hidden) or 410 (withdrawn). */
export function publicState(record: Visibility): 'public' | 'missing' | 'gone' {
  if (!record.published) return 'missing'
  if (record.status === 410) return 'gone'
  if (record.status === 404) return 'missing'
  return 'public'
}

/** Whether the public may see the record: in lists, menus, feeds, the API. */
export function isPublic(record: Visibility): boolean {
  return publicState(record) === 'public'
}

/** The same rule as a condition on the `structure` table, for queries that select from it. */
export function isPublicRecord(eb: ExpressionBuilder<any, any>): Expression<SqlBool> {
  return eb.and([
    eb('published', '=', 1),
    eb.or([eb('status', 'is', null), eb('status', 'not in', [...WITHDRAWN_STATUSES])]),
  ])
}

/**
 * The record's parent is public too (or it has none): for lists that pick records from anywhere in
 * the tree (the home page's featured products), which must not reach into a hidden section.
 */
export function hasPublicParent(eb: ExpressionBuilder<any, any>): Expression<SqlBool> {
  return eb.or([
    eb('structure.parentId', 'is', null),
    eb.exists(
      eb
        .selectFrom('structure as parent')
        .select('parent.id')
        .whereRef('parent.id', '=', 'structure.parentId')
        .where('parent.published', '=', 1)
        .where((p) => p.or([p('parent.status', 'is', null), p('parent.status', 'not in', [...WITHDRAWN_STATUSES])])),
    ),
  ])
}
