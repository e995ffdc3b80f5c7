// The route map loaded whole (issue 43: no lead or page waits over 100 ms for anything a process does
// besides its own request). A catalogue of 110,000 records took one query and about half a second
// of a process's time to load in one piece, every STRUCTURE_TTL and after a section changed, and
// every request of that process waited for it: a lead 1.5 s. Now the records are read a part at a
// time by id (a keyset, ROWS_PER_QUERY each) and the map is built in slices: whenever the load has
// held the event loop for SLICE_MS, it lets every waiting request and timer run first. The map is
// only used once it is whole, and a write that lands meanwhile is applied to it afterwards (the
// cache's pending records, or a reload), as for a load in one piece.
import type { Db } from '../data/db'
import { loadIndexRows, loadRouteRows, type IndexEntry, type RouteEntry, type RouteRow } from './structure-store'
import { isPublic, stateResolver } from './visibility'
import { Slices } from './slices'

/** Records per query: a few milliseconds of a query on either database */
const ROWS_PER_QUERY = 5000

/** A route map: every record by URL and by id, the public children of each, the index records. */
export interface RouteMap {
  /** Every record, drafts and withdrawn ones too: their URLs answer 404 and 410 */
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

async function allRows(db: Db, slices: Slices): Promise<RouteRow[]> {
  const rows: RouteRow[] = []
  for (let after = 0; ;) {
    const part = await loadRouteRows(db, after, ROWS_PER_QUERY)
    for (const row of part) rows.push(row)
    if (part.length < ROWS_PER_QUERY) return rows
    after = part[part.length - 1].id
    await slices.next()
  }
}

/** The entry of `row` with its state: `before`'s own object when nothing of it changed. */
function entryOf(row: RouteRow, state: RouteEntry['state'], before: RouteEntry | undefined): RouteEntry {
  const published = Boolean(row.published)
  if (
    before &&
    before.state === state &&
    before.published === published &&
    before.title === row.title &&
    before.urlFull === row.urlFull &&
    before.parentId === row.parentId &&
    before.sort === row.sort &&
    before.status === row.status &&
    before.typeId === row.typeId
  ) {
    return before
  }
  return { ...row, published, state }
}

/**
 * Every record's entry, by id and URL, and the public children of each record in tree order.
 * `before`: the map this one replaces (a reload every STRUCTURE_TTL): its entries that did not
 * change are kept, not made anew, so a reload leaves little for the collector. Made anew, the
 * 110,000 entries of the map before were garbage at once, and the collection after a reload held
 * the process taking leads 130–180 ms (issue 43, PostgreSQL).
 */
export async function loadRouteMap(
  db: Db,
  now: number,
  slices = new Slices(),
  before?: Pick<RouteMap, 'byId'>,
): Promise<RouteMap> {
  const rows = await allRows(db, slices)
  const indexRows = await loadIndexRows(db)
  const rowsById = new Map<number, RouteRow>()
  for (let i = 0; i < rows.length; i++) {
    rowsById.set(rows[i].id, rows[i])
    if (i % 1000 === 999) await slices.next()
  }
  const stateOf = stateResolver(rowsById)
  const byId = new Map<number, RouteEntry>()
  const byUrl = new Map<string, RouteEntry>()
  const children = new Map<number | null, RouteEntry[]>()
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]
    const entry = entryOf(row, stateOf(row), before?.byId.get(row.id))
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
  const indexes: IndexEntry[] = indexRows
    .filter((r) => rowsById.has(r.id) && stateOf(rowsById.get(r.id)!) === 'public')
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
