// The one door for content writes (issue 37; docs/decisions/022-house-layout.md): every change to the
// structure records and their parts (the API's writes and deletes, the content import's batch, the
// back office's moves and edits, the price list, documents, the operator's details, the media
// migration, the demo seed) runs as `door.write(unit => …)`. Inside the one write transaction, after
// the work, the door
//   1. keeps the `visible` flags under every record whose place or publication changed,
//   2. reindexes the touched records for search (not those whose words it left as they were),
//   3. queues for IndexNow every public URL that changed: the record's URL before and after (a move
//      announces both, a record that became hidden or was deleted its old one), its parents' (their
//      listings changed) and those of records under it whose visibility turned,
//   4. bumps the content version and records which kept pages the write changed
//      (page-changes.ts): other processes drop those pages, and their other caches, within a second;
// and after the commit it tells its listeners (this process's route map, page and API caches; the
// IndexNow worker), so the next request sees the write.
import fp from 'fastify-plugin'
import { sql, type Transaction } from 'kysely'
import type { Config } from '../config/config'
import { bumpContentVersion, now as isoNow, type Db } from '../data/db'
import { writeTransaction } from '../data/write-transaction'
import { recordContentChange } from '../data/content-changes'
import { isSqlite } from '../data/sql/dialect'
import type { Database } from '../data/schema'
import type { ContentDoor, ContentWrite, TouchOptions } from '../content/content-write'
import { syncVisibility } from '../content/tree-visibility'
import { ownState } from '../content/visibility'
import { reindexProducts } from './search/search-index'
import { enqueueUrls } from './indexnow/indexnow-outbox'
import { pagesChanged, type Placed } from './page-changes'
import type { PagesChanged } from '../../src/site/page-tags'

declare module 'fastify' {
  interface FastifyInstance {
    writeDoor: WriteDoor
  }
}

const CHUNK = 500
/** Records one write touches from which PostgreSQL's statistics are refreshed after the commit. */
export const ANALYZE_AFTER = 2000

/**
 * Whether an import in many short writes, gone from `before` to `after` items, passed a point where
 * PostgreSQL's statistics are refreshed: ANALYZE_AFTER items, then each doubling. The planner then
 * never knows of fewer than half the rows, and a 110,000-product exchange analyses 6 times, not 55
 * (each ANALYZE of the catalogue's tables samples 30,000 rows: 0.2–0.5 s of the import's time).
 */
export function statisticsDue(before: number, after: number): boolean {
  let mark = ANALYZE_AFTER
  while (mark <= before) mark *= 2
  return after >= mark
}

/** What a committed write changed: its listeners' cue. */
export interface WriteSummary {
  /** The records touched, created or deleted */
  readonly ids: readonly number[]
  /** True when the write changed what every page shows */
  readonly everyPage: boolean
  /** Which kept pages it changed (src/site/page-tags.ts) */
  readonly pages: PagesChanged
  /** The content version it made */
  readonly version: number
}

export interface WriteOptions {
  /** Queue the changed public URLs for IndexNow (default true; the demo seed says false) */
  readonly announce?: boolean
  /** Wait for the disk at the commit (default true); a 1C import's steps say false (TransactionOptions) */
  readonly durable?: boolean
}

type Snapshot = Placed

const SNAPSHOT_COLUMNS = [
  'structure.id',
  'structure.parentId',
  'structure.typeId',
  'structure.title',
  'structure.urlFull',
  'structure.sort',
  'structure.published',
  'structure.status',
  'structure.visible',
  'product.featured',
] as const

const isShown = (row: Snapshot | undefined | null): row is Snapshot =>
  Boolean(row && row.visible && ownState(row) === 'public')

async function snapshots(trx: Transaction<Database>, ids: readonly number[]): Promise<Map<number, Snapshot>> {
  const out = new Map<number, Snapshot>()
  for (let i = 0; i < ids.length; i += CHUNK) {
    const rows = await trx
      .selectFrom('structure')
      .leftJoin('product', 'product.structureId', 'structure.id')
      .select(SNAPSHOT_COLUMNS)
      .where('structure.id', 'in', ids.slice(i, i + CHUNK))
      .execute()
    for (const row of rows) out.set(row.id, row)
  }
  return out
}

class Unit implements ContentWrite {
  /** Each touched record as it was before the write; null for one it created */
  private readonly before = new Map<number, Snapshot | null>()
  private everyPage = false
  /** Touched records whose searchable words the write leaves as they were: not reindexed */
  private readonly sameWords = new Set<number>()

  constructor(
    readonly trx: Transaction<Database>,
    readonly at: string,
  ) {}

  async touch(ids: Iterable<number>, options: TouchOptions = {}): Promise<void> {
    const all = [...new Set(ids)]
    const fresh = all.filter((id) => !this.before.has(id))
    if (options.words === false) for (const id of fresh) this.sameWords.add(id)
    else for (const id of all) this.sameWords.delete(id)
    if (fresh.length === 0) return
    const rows = await snapshots(this.trx, fresh)
    for (const id of fresh) this.before.set(id, rows.get(id) ?? null)
  }

  created(id: number): void {
    if (!this.before.has(id)) this.before.set(id, null)
  }

  affectsEveryPage(): void {
    this.everyPage = true
  }

  /** The door's effects inside the transaction; null when the work changed nothing. */
  async finish(origin: string | null): Promise<WriteSummary | null> {
    const ids = [...this.before.keys()]
    if (ids.length === 0 && !this.everyPage) return null
    // 1. visibility under what moved, appeared or changed its publication
    const placed = await snapshots(this.trx, ids)
    const roots = ids.filter((id) => {
      const was = this.before.get(id)
      const is = placed.get(id)
      return (
        is !== undefined &&
        (!was || was.parentId !== is.parentId || was.published !== is.published || was.status !== is.status)
      )
    })
    const flips = await syncVisibility(this.trx, roots)
    // 2. search
    await reindexProducts(
      this.trx,
      ids.filter((id) => !this.sameWords.has(id)),
    )
    const after = flips.length > 0 ? await snapshots(this.trx, ids) : placed
    // 3. IndexNow
    if (origin !== null) {
      const urls = new Set<string>()
      const parents = new Set<number>()
      for (const id of ids) {
        for (const row of [this.before.get(id), after.get(id)]) {
          if (!row) continue
          if (isShown(row)) urls.add(row.urlFull)
          if (row.parentId !== null) parents.add(row.parentId)
        }
      }
      // A record this write touched is announced above at the URLs it was public at; a flip gives
      // today's URL, which for a record moved into a hidden section never was public.
      for (const flip of flips) if (!this.before.has(flip.id)) urls.add(flip.urlFull)
      for (const [, parent] of await snapshots(this.trx, [...parents])) if (isShown(parent)) urls.add(parent.urlFull)
      await enqueueUrls(
        this.trx,
        [...urls].map((path) => `${origin}${encodeURI(path)}`),
      )
    }
    // 4. every process sees it, and drops the pages it changed
    const pages = pagesChanged(
      this.before,
      after,
      flips.map((flip) => flip.id),
      this.everyPage,
    )
    await bumpContentVersion(this.trx)
    const version = await recordContentChange(this.trx, pages === 'every page' ? null : [...pages])
    return { ids, everyPage: this.everyPage, pages, version }
  }
}

export class WriteDoor implements ContentDoor {
  private readonly listeners: Array<(summary: WriteSummary) => void> = []

  constructor(
    readonly db: Db,
    private readonly options: {
      /** The site's origin when IndexNow is on, else null */
      readonly indexNowOrigin: string | null
      /** The clock of createdAt/updatedAt (tests drive it) */
      readonly now?: () => Date
    },
  ) {}

  /** Runs after every committed write that changed anything, in this process. */
  onCommit(listener: (summary: WriteSummary) => void): void {
    this.listeners.push(listener)
  }

  /**
   * Runs `work` in one write transaction with the door's effects; all of it is written or none.
   * After the commit the listeners hear of it. Returns what `work` returned.
   */
  async write<T>(work: (unit: ContentWrite) => Promise<T>, options: WriteOptions = {}): Promise<T> {
    let summary: WriteSummary | null = null
    const at = this.options.now ? this.options.now().toISOString() : isoNow()
    const origin = options.announce === false ? null : this.options.indexNowOrigin
    const result = await writeTransaction(
      this.db,
      async (trx) => {
        const unit = new Unit(trx, at)
        const value = await work(unit)
        summary = await unit.finish(origin)
        return value
      },
      options,
    )
    if (summary) {
      for (const listener of this.listeners) listener(summary)
      if ((summary as WriteSummary).ids.length >= ANALYZE_AFTER) await this.refreshStatistics()
    }
    return result
  }

  /**
   * PostgreSQL's planner statistics of the tables a large write filled (issue #36): until
   * autovacuum gets to them, search plans for the catalogue before the write (20–52 ms per page
   * after a 10,000-row price list, 7–18 ms after ANALYZE). Best effort: a failure changes no data.
   * An import writing in many short transactions calls it as it goes (import-claim.ts every
   * ANALYZE_AFTER rows, the 1C exchange at statisticsDue's points).
   */
  async refreshStatistics(): Promise<void> {
    if (isSqlite(this.db)) return
    try {
      // productProperty and characteristic: a section's filters and their counts (decision 042).
      await sql`ANALYZE "structure", "product", "productProperty", "characteristic", "searchIndex", "searchWord"`.execute(
        this.db,
      )
    } catch {
      // Statistics are an optimisation; the next autovacuum brings them up to date.
    }
  }
}

/** app.writeDoor, before anything that writes content (the demo seed, the documents). */
export const writeDoorPlugin = fp<{ config: Config; now?: () => Date }>(
  async (app, { config, now }) => {
    const origin = config.feeds.indexNow && config.publicUrl ? config.publicUrl : null
    app.decorate('writeDoor', new WriteDoor(app.db, { indexNowOrigin: origin, now }))
  },
  { name: 'write-door', dependencies: ['db'] },
)
