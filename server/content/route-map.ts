// The route map: the URL and place of every record of the tree (sections, pages, index records; the
// products are read by row, route-rows.ts), plus the index records with their logo, phone and texts
// (the spec's structure load). Loaded a part at a time without holding the event loop
// (route-map-load.ts) and kept by RouteMapCache for structureTtl seconds, served stale while it
// reloads, dropped on writes that change the tree.
import { readContentVersion, type Db } from '../data/db'
import { readContentChanges } from '../data/content-changes'
import { taggedIds, TREE_TAG, type PagesChanged } from '../../src/site/page-tags'
import type { IndexEntry, RouteEntry } from './structure-store'
import { loadRouteMap, type RouteMap } from './route-map-load'
import { BACKGROUND, Slices } from './slices'
import type { NavLink } from '../../src/site/types'

export type { RouteMap }

export type { IndexEntry, RouteEntry }

const VERSION_CHECK_MS = 1000

/** The route map of this process, with the content version check that keeps PM2 workers in step. */
export class RouteMapCache {
  private current: RouteMap | null = null
  /** The map dropped by the last reloadMap(), until the new one is loaded: what latest() answers meanwhile */
  private dropped: RouteMap | null = null
  private loading: Promise<RouteMap> | null = null
  private generation = 0
  private version: number | null = null
  private versionCheckedAt = 0
  private reachable = true
  private readonly listeners: ((changed: PagesChanged) => void)[] = []
  /** Versions this process wrote and already applied: another look at the log skips them */
  private readonly own = new Set<number>()

  constructor(
    private readonly db: Db,
    private readonly ttlSeconds: number,
    /** The clock of the version check and the map's age (tests drive it) */
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * This process wrote the content (`version`, which changed `changed`): drop it now, and read the
   * version at the next check rather than up to a second later, skipping this write's own change
   * there, so it does not drop the pages a second time after they were rendered again.
   */
  afterWrite(changed: PagesChanged = 'every page', version?: number): void {
    if (version !== undefined) this.own.add(version)
    this.versionCheckedAt = 0
    this.invalidate(changed)
  }

  /**
   * Tells the listeners what changed, and has the next request reload the map when the change
   * moved a record it holds; a product's place (an import's, «Товары»') leaves the tree as it is.
   */
  invalidate(changed: PagesChanged = 'every page'): void {
    if (this.movesTree(changed)) this.reloadMap()
    for (const listener of this.listeners) listener(changed)
  }

  /** Whether a change moved a record of the tree: every page, or a place change the map holds. */
  private movesTree(changed: PagesChanged): boolean {
    if (changed === 'every page') return true
    if (!changed.has(TREE_TAG)) return false
    const moved = taggedIds(changed, 'p')
    // A place change without its records (a log row of an older process): any record may have moved.
    if (moved.size === 0) return true
    const map = this.atHand
    return map !== null && [...moved].some((id) => map.byId.has(id))
  }

  /** The map in use, or while a reload replaces it, the one it replaces */
  private get atHand(): RouteMap | null {
    return this.current ?? this.dropped
  }

  /** Drops the cached map alone: the next request reloads it. */
  reloadMap(): void {
    this.generation++
    this.dropped = this.atHand
    this.current = null
  }

  /** Runs after every invalidation, this process's own writes and other processes' alike. */
  onInvalidate(listener: (changed: PagesChanged) => void): void {
    this.listeners.push(listener)
  }

  /**
   * Notices content writes made by other processes (PM2 workers, tools): at most once a second
   * it reads the content version that every write bumps, and invalidates when it moved.
   */
  async sync(): Promise<void> {
    const now = this.now()
    if (now - this.versionCheckedAt < VERSION_CHECK_MS) return
    this.versionCheckedAt = now
    let version: number
    try {
      version = await readContentVersion(this.db)
    } catch {
      // Unreachable: pages keep coming from the page cache and this last good map until it is back.
      this.reachable = false
      return
    }
    this.reachable = true
    const known = this.version
    this.version = version
    if (known === null || version === known) return
    // What the versions since the one this process knew changed (their log), or every page.
    const changed = await readContentChanges(this.db, known, version, this.own).catch(() => null)
    for (const own of this.own) if (own <= version) this.own.delete(own)
    if (changed === null) this.invalidate('every page')
    else if (changed.size > 0) this.invalidate(changed)
  }

  /** Whether the last version check reached the database. */
  get databaseReachable(): boolean {
    return this.reachable
  }

  /**
   * A query just failed because the database is away: say so at once, so the next requests take
   * the outage path instead of each waiting on a dead connection; the next version check (a second
   * from now) finds out whether it is back.
   */
  markUnreachable(): void {
    this.reachable = false
    this.versionCheckedAt = this.now()
  }

  async get(): Promise<RouteMap> {
    await this.sync()
    const map = this.current
    const fresh = map && this.now() - map.loadedAt < this.ttlSeconds * 1000
    if (map && fresh) return map
    const reload = this.loading ?? this.reload()
    // Stale-while-revalidate: an expired map keeps serving while the new one loads, and for as
    // long as the database cannot give a new one.
    if (map) {
      reload.catch(() => {})
      return map
    }
    return reload
  }

  /**
   * The map at hand, without waiting for the version check or a reload to finish (they go on
   * meanwhile, and the next get() has them): while a write that changed the tree is read in, the
   * map before it. Only a process's first load is waited for. For what must never wait on the
   * site's tree being brought up to date (a lead's intake).
   */
  latest(): Promise<RouteMap> {
    const map = this.atHand
    if (!map) return this.get()
    this.get().catch(() => {})
    return Promise.resolve(map)
  }

  private reload(): Promise<RouteMap> {
    const generation = this.generation
    const before = this.atHand ?? undefined
    // An expired map keeps serving (get()): nobody waits for this reload, which is spread thin
    // (slices.ts, BACKGROUND). A dropped map's pages wait for it: at full pace.
    const slices = this.current ? new Slices(BACKGROUND.budgetMs, BACKGROUND.pauseMs) : undefined
    this.loading = loadRouteMap(this.db, this.now(), slices, before)
      .then((map) => {
        if (generation === this.generation) {
          this.current = map
          this.dropped = null
        }
        return map
      })
      .finally(() => {
        this.loading = null
      })
    return this.loading
  }
}

// What is derived from a route map alone (a page's tree, the layout's menu) is worked out once per
// map, not per rendering: a map never changes, a reload makes a new one, and the old one's values
// go with it.
const derivedValues = new WeakMap<RouteMap, Map<string, unknown>>()

/** `compute()` once per route map and key; later calls with that map get the same value (read-only). */
export function derivedFrom<T>(routes: RouteMap, key: string, compute: () => T): T {
  let values = derivedValues.get(routes)
  if (!values) {
    values = new Map()
    derivedValues.set(routes, values)
  }
  if (!values.has(key)) values.set(key, compute())
  return values.get(key) as T
}

/** Public children of a record with the given type, in tree order. */
export function publicChildren(routes: RouteMap, id: number, typeId: string): readonly RouteEntry[] {
  return derivedFrom(routes, `children ${id} ${typeId}`, () =>
    (routes.children.get(id) ?? []).filter((c) => c.typeId === typeId),
  )
}

/** Public descendants in tree order (depth first, by sort), optionally limited in depth. */
export function descendants(
  routes: RouteMap,
  rootId: number,
  accept: (e: RouteEntry) => boolean,
  maxDepth = 8,
): RouteEntry[] {
  const out: RouteEntry[] = []
  const walk = (id: number, depth: number) => {
    if (depth > maxDepth) return
    for (const child of routes.children.get(id) ?? []) {
      // A nested index record is another landing with its own tree.
      if (child.typeId === 'index') continue
      if (accept(child)) out.push(child)
      walk(child.id, depth + 1)
    }
  }
  walk(rootId, 1)
  return out
}

export function breadcrumbs(routes: RouteMap, entry: RouteEntry): NavLink[] {
  const chain: NavLink[] = []
  let cursor: RouteEntry | undefined = entry
  const seen = new Set<number>()
  while (cursor && !seen.has(cursor.id)) {
    seen.add(cursor.id)
    chain.unshift({ title: cursor.typeId === 'index' ? 'Главная' : cursor.title, url: cursor.urlFull })
    cursor = cursor.parentId === null ? undefined : routes.byId.get(cursor.parentId)
  }
  return chain
}
