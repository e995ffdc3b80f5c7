// The route map loaded whole (issue 43: no lead or page waits over 100 ms for anything a process does
// besides its own request). A catalogue of 110,000 records took one query and about half a second
// of a process's time to load in one piece, every STRUCTURE_TTL and after a section changed, and
// every request of that process waited for it: a lead 1.5 s. Now the records are read a part at a
// time (a keyset on the typeId index, ROWS_PER_QUERY each) and the map is built in slices: whenever
// the load has held the event loop for SLICE_MS, it lets every waiting request and timer run
// first. The map is only used once it is whole, and a write that lands meanwhile is applied to it
// afterwards (the cache's pending records, or a reload), as for a load in one piece.
import type { Db } from '../data/db'
import type { IndexEntry, RouteEntry, RouteRow } from './structure-store'
import { loadIndexRows, loadRouteRows, loadRouteRowsById, type RouteCursor } from './route-rows'
import { isPublic, stateResolver } from './visibility'
import { Slices } from './slices'

/** Records per query: a few milliseconds of a query on either database */
const ROWS_PER_QUERY = 5000
/** Ids per query of the products other records sit under: well under either database's bound parameters */
const IDS_PER_QUERY = 500

/**
 * A route map: the tree's records by URL and by id, the public children of each, the index records.
 * It holds no products (route-rows.ts), but those with records under them.
 */
export interface RouteMap {
  /** Every record of the tree, drafts and withdrawn ones too: their URLs answer 404 and 410 */
  readonly byUrl: ReadonlyMap<string, RouteEntry>
  readonly byId: ReadonlyMap<number, RouteEntry>
  /** The public children of each record, in tree order: what menus, tiles and cards may show */
  readonly children: ReadonlyMap<number | null, RouteEntry[]>
  /** Public index records, longest urlFull first, for owner lookup */
  readonly indexes: readonly IndexEntry[]
  readonly loadedAt: number
}

/** Tree order: by sort, then id. */
const treeOrder = (a: RouteEntry, b: RouteEntry) => a.sort - b.sort || a.id - b.id

/** Whether `row` is what `entry` was read from (its state aside, which depends on the rows above). */
function sameRow(entry: RouteEntry, row: RouteRow): boolean {
  return (
    entry.published === Boolean(row.published) &&
    entry.title === row.title &&
    entry.urlFull === row.urlFull &&
    entry.parentId === row.parentId &&
    entry.sort === row.sort &&
    entry.status === row.status &&
    entry.typeId === row.typeId
  )
}

/**
 * Every record's entry, read a part at a time in the order of the typeId index: `before`'s own
 * object where the row did not change (its state checked later), a new one where it did. No
 * part's rows outlive it: held for the whole load, 110,000 rows and their strings outlived the
 * young generation, and their collection later held the process taking leads.
 */
async function readEntries(db: Db, slices: Slices, before: RouteMap | undefined) {
  const entries: RouteEntry[] = []
  const made = new Set<RouteEntry>()
  const take = (row: RouteRow) => {
    const old = before?.byId.get(row.id)
    if (old && sameRow(old, row)) return entries.push(old)
    // Its state is set once every record is read.
    const entry: RouteEntry = { ...row, published: Boolean(row.published), state: 'missing' }
    made.add(entry)
    entries.push(entry)
  }
  for (let after: RouteCursor | null = null; ;) {
    const part = await loadRouteRows(db, after, ROWS_PER_QUERY)
    for (let i = 0; i < part.length; i++) {
      take(part[i])
      if (i % 1000 === 999) await slices.next()
    }
    if (part.length < ROWS_PER_QUERY) break
    after = part[part.length - 1]
    await slices.next()
  }
  // The products other records sit under (and theirs): every record the map holds has its parent there.
  const held = new Set(entries.map((e) => e.id))
  for (let from = 0; from < entries.length;) {
    const wanted = [
      ...new Set(entries.slice(from).flatMap((e) => (e.parentId === null || held.has(e.parentId) ? [] : [e.parentId]))),
    ]
    from = entries.length
    for (let i = 0; i < wanted.length; i += IDS_PER_QUERY) {
      for (const { visible: _, ...row } of await loadRouteRowsById(db, wanted.slice(i, i + IDS_PER_QUERY))) {
        held.add(row.id)
        take(row)
      }
    }
  }
  return { entries, made }
}

/**
 * Every record's entry, by id and URL, and the public children of each record in tree order.
 * `before`: the map this one replaces (a reload every STRUCTURE_TTL). Its entries that did not
 * change are kept, not made anew, and when no record changed, appeared or went, its tables are
 * kept too: a reload of an unchanged catalogue leaves nothing for the collector but the rows it
 * read. Made anew, the 110,000 entries of the map before were garbage at once, and the collection
 * after a reload held the process taking leads 130–180 ms (issue 43, PostgreSQL).
 */
export async function loadRouteMap(db: Db, now: number, slices = new Slices(), before?: RouteMap): Promise<RouteMap> {
  const { entries, made } = await readEntries(db, slices, before)
  const indexRows = await loadIndexRows(db)
  let byId: Map<number, RouteEntry> | ReadonlyMap<number, RouteEntry>
  let byUrl: Map<string, RouteEntry> | ReadonlyMap<string, RouteEntry>
  let children: Map<number | null, RouteEntry[]> | ReadonlyMap<number | null, RouteEntry[]>
  if (before && made.size === 0 && entries.length === before.byId.size) {
    // The same rows as the map before (each found in it, as many): the same states, lists and tables.
    ;({ byId, byUrl, children } = before)
  } else {
    ;({ byId, byUrl, children } = await buildTables(entries, made, slices))
  }
  const indexes: IndexEntry[] = indexRows
    .filter((r) => byId.get(r.id)?.state === 'public')
    .map((r) => ({
      id: r.id,
      parentId: r.parentId,
      typeId: r.typeId,
      urlFull: r.urlFull,
      index: { logo: r.logo, tel: r.tel, telText: r.telText, description: r.description, copyright: r.copyright },
    }))
    .sort((a, b) => b.urlFull.length - a.urlFull.length)
  return { byUrl, byId, children, indexes, loadedAt: now }
}

/** The tables of `entries`, each with its state in the tree: a kept entry whose state changed is made anew. */
async function buildTables(entries: RouteEntry[], made: ReadonlySet<RouteEntry>, slices: Slices) {
  const byId = new Map<number, RouteEntry>()
  for (let i = 0; i < entries.length; i++) {
    byId.set(entries[i].id, entries[i])
    if (i % 1000 === 999) await slices.next()
  }
  // States from the rows as read (published, status, parent); an entry's own state is not read.
  const stateOf = stateResolver(byId)
  const byUrl = new Map<string, RouteEntry>()
  const children = new Map<number | null, RouteEntry[]>()
  for (let i = 0; i < entries.length; i++) {
    let entry = entries[i]
    const state = stateOf(entry)
    if (made.has(entry)) entry.state = state
    else if (entry.state !== state) entry = { ...entry, state }
    byId.set(entry.id, entry)
    byUrl.set(entry.urlFull, entry)
    if (isPublic(entry)) {
      const list = children.get(entry.parentId)
      if (list) list.push(entry)
      else children.set(entry.parentId, [entry])
    }
    if (i % 1000 === 999) await slices.next()
  }
  for (const list of children.values()) {
    if (list.length > 1) list.sort(treeOrder)
    await slices.next()
  }
  return { byId, byUrl, children }
}
