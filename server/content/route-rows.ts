// The route map's reads (route-map-load.ts) and the records it does not hold. The map holds the
// tree: every record but the products (decision 033, "Products out of the route map"); a product is
// read by its URL or id when a page, a lead or a list names it, one indexed row, and takes its
// state from its section in the map. Products under which other records sit are the exception: the
// map holds them too, so that every record it holds has its parent there.
import type { Kysely, Transaction } from 'kysely'
import type { Database } from '../data/schema'
import type { RouteEntry, RouteRow } from './structure-store'
import { ownState, stateInTree } from './visibility'

type Queryable = Kysely<Database> | Transaction<Database>

/** What the map knows of the tree a looked-up record sits in. */
interface Tree {
  readonly byId: ReadonlyMap<number, RouteEntry>
  readonly byUrl: ReadonlyMap<string, RouteEntry>
}

const ROUTE_COLUMNS = ['id', 'parentId', 'typeId', 'title', 'urlFull', 'sort', 'published', 'status'] as const

/** Where a load of the tree's rows has got to: the last row read, in (typeId, id) order. */
export interface RouteCursor {
  readonly typeId: string
  readonly id: number
}

const PRODUCT = 'product'

/**
 * `limit` records other than products after `after` (from the first when null), in (typeId, id)
 * order: a keyset through the typeId index (which holds the id) below 'product', then above it.
 * The tree, not the catalogue (decision 033). Read in id order with `typeId <> 'product'` as a
 * filter, SQLite walked the table by id, every product's row included: 98 ms of a process's time
 * per part at 110,000 products, a lead on it waiting (issue 43).
 */
export async function loadRouteRows(db: Queryable, after: RouteCursor | null, limit: number): Promise<RouteRow[]> {
  const from = after ?? { typeId: '', id: 0 }
  const rows = from.typeId < PRODUCT ? await routeRowsIn(db, '<', from, limit) : []
  if (rows.length < limit) {
    const above = from.typeId > PRODUCT ? from : { typeId: PRODUCT, id: 0 }
    rows.push(...(await routeRowsIn(db, '>', above, limit - rows.length)))
  }
  return rows
}

/** Rows of one side of 'product' in the typeId index, after `from`. */
function routeRowsIn(db: Queryable, side: '<' | '>', from: RouteCursor, limit: number): Promise<RouteRow[]> {
  return db
    .selectFrom('structure')
    .select(ROUTE_COLUMNS)
    .where('typeId', side, PRODUCT)
    .where((eb) => eb(eb.refTuple('typeId', 'id'), '>', eb.tuple(from.typeId, from.id)))
    .orderBy('typeId')
    .orderBy('id')
    .limit(limit)
    .execute()
}

/** The index records with their part: the site's logo, phone and texts. */
export async function loadIndexRows(db: Queryable) {
  // select id, parentId, typeId, urlFull, index {logo, tel, telText, description, copyright}
  // where typeId in [index] orderBy typeId asc (the route map load, docs/contract.md §3)
  return db
    .selectFrom('structure')
    .leftJoin('siteIndex', 'siteIndex.structureId', 'structure.id')
    .select([
      'structure.id',
      'structure.parentId',
      'structure.typeId',
      'structure.urlFull',
      'structure.published',
      'structure.status',
      'siteIndex.logo',
      'siteIndex.tel',
      'siteIndex.telText',
      'siteIndex.description',
      'siteIndex.copyright',
    ])
    .where('structure.typeId', 'in', ['index'])
    .orderBy('structure.typeId', 'asc')
    .execute()
}

/** These records' routes, with the stored `visible` flag (up to 500 ids). */
export async function loadRouteRowsById(db: Queryable, ids: readonly number[]): Promise<PlacedRow[]> {
  if (ids.length === 0) return []
  return db
    .selectFrom('structure')
    .select([...ROUTE_COLUMNS, 'visible'])
    .where('id', 'in', [...ids])
    .execute()
}

/** A record's route with the stored `visible` flag: whether every record above it is public. */
type PlacedRow = RouteRow & { visible: number }

/**
 * A record the map does not hold as its entry. Its own flags first; then its parent's state as the
 * map has it (as the map's own entries take theirs), or, with no parent in the map, the stored flag.
 */
export function entryOfRow(row: PlacedRow, tree: Tree): RouteEntry {
  const { visible, ...route } = row
  const parent = row.parentId === null ? undefined : tree.byId.get(row.parentId)
  const own = ownState(row)
  const state =
    own !== 'public' || parent || row.parentId === null
      ? stateInTree(row, parent?.state ?? null)
      : visible
        ? 'public'
        : 'missing'
  return { ...route, published: Boolean(row.published), state }
}

/**
 * A record found, and whether the map is behind it: a record it should hold (one added since it was
 * loaded). A product under a section added since takes its state from its stored flag meanwhile,
 * and the section's own write brings every process a new map within a second; a product under a
 * product (which the map holds only with records of another type under it) always does.
 */
export interface Found {
  readonly entry: RouteEntry
  readonly behind: boolean
}

const found = (row: PlacedRow | undefined, tree: Tree): Found | undefined =>
  row && { entry: entryOfRow(row, tree), behind: row.typeId !== 'product' }

/** The record at `urlFull`: the map's entry, else the row read now (a product). */
export async function entryAt(db: Queryable, tree: Tree, urlFull: string): Promise<Found | undefined> {
  const held = tree.byUrl.get(urlFull)
  if (held) return { entry: held, behind: false }
  const row = await db
    .selectFrom('structure')
    .select([...ROUTE_COLUMNS, 'visible'])
    .where('urlFull', '=', urlFull)
    .executeTakeFirst()
  return found(row, tree)
}

/** The record with this id: the map's entry, else the row read now (a product). */
export async function entryById(db: Queryable, tree: Tree, id: number): Promise<Found | undefined> {
  const held = tree.byId.get(id)
  if (held) return { entry: held, behind: false }
  return found((await loadRouteRowsById(db, [id]))[0], tree)
}
