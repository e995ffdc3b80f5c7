// The sections as the content tree shows them: a parent, then its children by `sort`, each with
// its depth, so a select can indent them. A section whose parent is not a section (the home page,
// a text page) starts a branch of its own at depth 0; such branches follow each other by `sort`.
import type { SectionOption } from '../../../src/admin/admin-products'

interface SectionRow {
  readonly id: number
  readonly parentId: number | null
  readonly title: string
  readonly urlFull: string
  readonly sort: number | null
}

const bySort = (a: SectionRow, b: SectionRow) => (a.sort ?? 0) - (b.sort ?? 0) || a.id - b.id

/** The rows in the tree's order (depth first), each with its depth. */
export function inTreeOrder(rows: readonly SectionRow[]): SectionOption[] {
  const ids = new Set(rows.map((row) => row.id))
  const children = new Map<number | null, SectionRow[]>()
  for (const row of rows) {
    const parent = row.parentId !== null && ids.has(row.parentId) ? row.parentId : null
    children.set(parent, [...(children.get(parent) ?? []), row])
  }
  const ordered: SectionOption[] = []
  // An explicit stack: a deep tree does not grow the call stack.
  const stack = (children.get(null) ?? [])
    .sort(bySort)
    .map((row) => ({ row, depth: 0 }))
    .reverse()
  while (stack.length > 0) {
    const { row, depth } = stack.pop()!
    ordered.push({ id: row.id, parentId: row.parentId, title: row.title, urlFull: row.urlFull, depth })
    const below = (children.get(row.id) ?? []).sort(bySort)
    for (let i = below.length - 1; i >= 0; i--) stack.push({ row: below[i], depth: depth + 1 })
  }
  return ordered
}
