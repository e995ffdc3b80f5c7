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
import { Slices } from './slices'

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
async function loadRows(db: Db, ids: readonly number[], slices: Slices) {
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
    await slices.next()
  }
  return rows
}

/** Tree order: by sort, then id (as the full load makes the lists). */
const treeOrder = (a: RouteEntry, b: RouteEntry) => a.sort - b.sort || a.id - b.id

/** Whether `b` (in tree order) comes after every entry of `a`. */
const afterLast = (a: readonly RouteEntry[], b: readonly RouteEntry[]) =>
  a.length === 0 || b.length === 0 || treeOrder(a[a.length - 1], b[0]) < 0

/**
 * Two lists in tree order as one. New records come after their section's last (an import's, the
 * editor's): then it is one copy, not a walk through the section's list comparing each entry (an
 * import's second of writes touches every section's list, and the walks held the process taking
 * leads 60–100 ms a second at 110,000 products).
 */
function merged(a: readonly RouteEntry[], b: readonly RouteEntry[]): RouteEntry[] {
  if (b.length === 0) return [...a]
  if (afterLast(a, b)) return a.concat(b)
  const out: RouteEntry[] = []
  let i = 0
  let j = 0
  while (i < a.length || j < b.length) {
    if (j === b.length || (i < a.length && treeOrder(a[i], b[j]) < 0)) out.push(a[i++])
    else out.push(b[j++])
  }
  return out
}

/**
 * The tables with these records read again, or null when a reload is needed instead: a record that
 * is (or was) not a product, or whose parent is not in the map. The maps are patched in place (a
 * copy of 110,000 entries per step of an import held every request of a process for 50–90 ms): they
 * are the cache's own, built by route-map-load.ts and changed only here, and a request holding the
 * map of before sees these records as they are now. So is a list of children that only gains records
 * after its last (an import's new products): appended to, not copied (an import's second touches
 * every section, and copying their lists copied the whole catalogue's entries each second); any
 * other touched list is made anew. What was worked out from the map of before (derivedFrom) is a
 * copy, and stays as it was. The work is done first, in slices with the event loop let go between
 * them (an import's second of writes touches lists across the catalogue), and the maps are changed
 * after it in one go, so no request sees half a patch. The cache runs one patch at a time, and drops its result when the map was reloaded meanwhile.
 */
export async function patchRoutes(db: Db, tables: RouteTables, ids: ReadonlySet<number>): Promise<RouteTables | null> {
  const slices = new Slices()
  const rows = await loadRows(db, [...ids], slices)
  const byUrl = tables.byUrl as Map<string, RouteEntry>
  const byId = tables.byId as Map<number, RouteEntry>
  const children = tables.children as Map<number | null, RouteEntry[]>
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
  // Each list of children a change touches is made anew once, in one pass: its entries less the
  // records read again, merged in tree order with their new entries.
  const gone = new Map<number | null, Set<number>>()
  for (const id of ids) {
    const old = byId.get(id)
    if (old && isPublic(old)) gone.set(old.parentId, (gone.get(old.parentId) ?? new Set()).add(old.id))
  }
  const entries = rows.map((row): RouteEntry => ({
    ...row,
    published: Boolean(row.published),
    state: stateInTree(row, byId.get(row.parentId!)!.state),
  }))
  const fresh = new Map<number | null, RouteEntry[]>()
  for (const entry of entries) {
    if (!isPublic(entry)) continue
    const list = fresh.get(entry.parentId)
    if (list) list.push(entry)
    else fresh.set(entry.parentId, [entry])
  }
  const lists = new Map<number | null, RouteEntry[]>()
  /** Lists that only gain entries after their last: these are appended to in place, with the maps */
  const appended = new Map<RouteEntry[], RouteEntry[]>()
  for (const parentId of new Set([...gone.keys(), ...fresh.keys()])) {
    const leaving = gone.get(parentId)
    const list = children.get(parentId) ?? []
    const coming = (fresh.get(parentId) ?? []).sort(treeOrder)
    if (list.length > 0 && !leaving && afterLast(list, coming)) appended.set(list, coming)
    else lists.set(parentId, merged(leaving ? list.filter((e) => !leaving.has(e.id)) : list, coming))
    await slices.next()
  }
  // The changes, in one go.
  for (const id of ids) {
    const old = byId.get(id)
    if (!old) continue
    byId.delete(old.id)
    if (byUrl.get(old.urlFull)?.id === old.id) byUrl.delete(old.urlFull)
  }
  for (const entry of entries) {
    byId.set(entry.id, entry)
    byUrl.set(entry.urlFull, entry)
  }
  for (const [parentId, list] of lists) {
    if (list.length > 0) children.set(parentId, list)
    else children.delete(parentId)
  }
  for (const [list, coming] of appended) for (const entry of coming) list.push(entry)
  return { byUrl, byId, children }
}
