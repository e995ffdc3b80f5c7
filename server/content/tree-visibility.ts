// Keeps `structure.visible` equal to the visibility rule (content/visibility.ts) under the records a
// write changed: the write door calls it inside the write's transaction. Walks down from all the
// roots together, one level at a time in lists of 500, so its cost is the subtrees' size (a few
// queries per 500 records), never the catalogue's.
import type { Transaction } from 'kysely'
import type { Database } from '../data/schema'
import { stateInTree, type PublicState } from './visibility'

const CHUNK = 500

interface TreeRow {
  id: number
  parentId: number | null
  urlFull: string
  published: number
  status: number | null
  visible: number
}

/** A record whose `visible` flag this call turned over. */
export interface VisibilityFlip {
  readonly id: number
  readonly urlFull: string
  readonly visible: boolean
}

const COLUMNS = ['id', 'parentId', 'urlFull', 'published', 'status', 'visible'] as const

async function rowsWhere(trx: Transaction<Database>, column: 'id' | 'parentId', keys: readonly number[]) {
  const rows: TreeRow[] = []
  for (let i = 0; i < keys.length; i += CHUNK) {
    rows.push(
      ...(await trx
        .selectFrom('structure')
        .select(COLUMNS)
        .where(column, 'in', keys.slice(i, i + CHUNK))
        .execute()),
    )
  }
  return rows
}

/**
 * Sets `visible` on the given records and everything under them; returns the records whose flag
 * changed, with their URLs (the door tells IndexNow of them).
 */
export async function syncVisibility(trx: Transaction<Database>, rootIds: Iterable<number>): Promise<VisibilityFlip[]> {
  const roots = await rowsWhere(trx, 'id', [...new Set(rootIds)])
  if (roots.length === 0) return []
  // What is above each root, from its parent's own flags and stored `visible` (a parent that is
  // itself among the roots is corrected when the walk reaches its children again).
  const parentIds = [...new Set(roots.flatMap((r) => (r.parentId === null ? [] : [r.parentId])))]
  const parents = new Map((await rowsWhere(trx, 'id', parentIds)).map((r) => [r.id, r]))
  const aboveOf = (row: TreeRow): PublicState | null => {
    if (row.parentId === null) return null
    const parent = parents.get(row.parentId)
    if (!parent) return null
    return parent.visible ? stateInTree(parent, null) : 'missing'
  }
  const original = new Map<number, TreeRow>()
  const states = new Map<number, PublicState>()
  const seenAbove = new Map<number, PublicState | null>()
  let level = roots.map((row) => ({ row, above: aboveOf(row) }))
  while (level.length > 0) {
    const expanded: number[] = []
    for (const { row, above } of level) {
      if (seenAbove.has(row.id) && seenAbove.get(row.id) === above) continue
      if (!original.has(row.id)) original.set(row.id, row)
      seenAbove.set(row.id, above)
      states.set(row.id, stateInTree(row, above))
      expanded.push(row.id)
    }
    const children = await rowsWhere(trx, 'parentId', expanded)
    level = children.map((row) => ({ row, above: states.get(row.parentId!) ?? null }))
  }
  const flips: VisibilityFlip[] = []
  for (const [id, row] of original) {
    const visible = states.get(id) === 'public'
    if (visible !== Boolean(row.visible)) flips.push({ id, urlFull: row.urlFull, visible })
  }
  for (const value of [0, 1] as const) {
    const ids = flips.filter((f) => Number(f.visible) === value).map((f) => f.id)
    for (let i = 0; i < ids.length; i += CHUNK) {
      await trx
        .updateTable('structure')
        .set({ visible: value })
        .where('id', 'in', ids.slice(i, i + CHUNK))
        .execute()
    }
  }
  return flips
}
