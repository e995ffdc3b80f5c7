// A route map patched in place of a reload (issue 35's imports, issue 34's writes): a write that
// moved, renamed, created, deleted, hid or showed products (and nothing above them) names them with
// placeTag (src/site/page-tags.ts), and the route map reads those rows alone instead of every
// record of the catalogue. At 10,000 products a reload takes ~80 ms of a process's time after
// every step of an import; a patch of a step's 200 products, a few. Anything else, or a product
// that is not a leaf of the tree, is a reload.
import type { Db } from '../data/db'
import { placeIds, TREE_TAG, type PagesChanged } from '../../src/site/page-tags'
import type { RouteEntry } from './structure-store'
import { isPublic, stateInTree } from './visibility'

/** Ids per query: well under SQLite's and PostgreSQL's bound parameters */
const IDS_PER_QUERY = 500

/** The parts of a route map a patch makes anew; the rest (the index records) it keeps. */
export interface RouteTables {
  readonly byUrl: ReadonlyMap<string, RouteEntry>
  readonly byId: ReadonlyMap<number, RouteEntry>
  readonly children: ReadonlyMap<number | null, RouteEntry[]>
}

/**
 * What a change asks of the route map: nothing (no record's place changed), the places of these
 * records, or a reload.
 */
export function routeWork(changed: PagesChanged): 'nothing' | 'reload' | ReadonlySet<number> {
  if (changed === 'every page') return 'reload'
  if (!changed.has(TREE_TAG)) return 'nothing'
  const ids = placeIds(changed)
  // A place change without its records (a log row of an older process): every place may have moved.
  return ids.size > 0 ? ids : 'reload'
}

/** The rows of these records as the route map holds them; an id without a row was deleted. */
async function loadRows(db: Db, ids: readonly number[]) {
  const rows = []
  for (let i = 0; i < ids.length; i += IDS_PER_QUERY) {
    const chunk = ids.slice(i, i + IDS_PER_QUERY)
    rows.push(
      ...(await db
        .selectFrom('structure')
        .select(['id', 'parentId', 'typeId', 'title', 'urlFull', 'sort', 'published', 'status'])
        .where('id', 'in', chunk)
        .execute()),
    )
  }
  return rows
}

/** Tree order: by sort, then id (as the full load reads the rows). */
const before = (a: RouteEntry, b: RouteEntry) => a.sort < b.sort || (a.sort === b.sort && a.id < b.id)

/**
 * The tables with these records read again, or null when a reload is needed instead: a record that
 * is (or was) not a product, or whose parent is not in the map. The maps are patched in place (a
 * copy of 110,000 entries per step of an import held every request of a process for 50–90 ms): they
 * are the cache's own, built by route-map-load.ts and changed only here, and a request holding the
 * map of before sees these records as they are now. A list of children is copied, never changed:
 * what was worked out from the map of before (derivedFrom) stays as it was.
 */
export async function patchRoutes(db: Db, tables: RouteTables, ids: ReadonlySet<number>): Promise<RouteTables | null> {
  const rows = await loadRows(db, [...ids])
  const byUrl = tables.byUrl as Map<string, RouteEntry>
  const byId = tables.byId as Map<number, RouteEntry>
  const children = tables.children as Map<number | null, RouteEntry[]>
  // Every check before the first change: a reload leaves these maps to the old map alone.
  for (const id of ids) {
    const old = byId.get(id)
    // A product with records under it: their states and URLs may follow it.
    if (old && (old.typeId !== 'product' || children.has(id))) return null
  }
  for (const row of rows) {
    if (row.typeId !== 'product' || row.parentId === null) return null
    const parent = byId.get(row.parentId)
    if (!parent || parent.typeId === 'product') return null
  }
  const copied = new Set<number | null>()
  const listOf = (parentId: number | null) => {
    if (!copied.has(parentId)) {
      children.set(parentId, [...(children.get(parentId) ?? [])])
      copied.add(parentId)
    }
    return children.get(parentId)!
  }
  for (const id of ids) {
    const old = byId.get(id)
    if (!old) continue
    byId.delete(old.id)
    if (byUrl.get(old.urlFull)?.id === old.id) byUrl.delete(old.urlFull)
    if (!isPublic(old)) continue
    const list = listOf(old.parentId)
    const at = list.findIndex((e) => e.id === old.id)
    if (at >= 0) list.splice(at, 1)
  }
  for (const row of rows) {
    const parent = byId.get(row.parentId!)!
    const entry: RouteEntry = { ...row, published: Boolean(row.published), state: stateInTree(row, parent.state) }
    byId.set(entry.id, entry)
    byUrl.set(entry.urlFull, entry)
    if (!isPublic(entry)) continue
    const list = listOf(entry.parentId)
    let at = list.length
    while (at > 0 && before(entry, list[at - 1])) at--
    list.splice(at, 0, entry)
  }
  for (const parentId of copied) if (children.get(parentId)!.length === 0) children.delete(parentId)
  return { byUrl, byId, children }
}
