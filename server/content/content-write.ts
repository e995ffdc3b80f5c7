// The unit of work every change to the structure records and their parts goes through
// (docs/decisions/022-house-layout.md, "One door for writes"). Only the write door
// (catalogue/write-door.ts) makes one: a store's writer takes it instead of a bare transaction, so
// nothing writes the content without the door's effects (the content version, the `visible` flags,
// the search index, IndexNow, the caches after the commit).
import type { Transaction } from 'kysely'
import type { Db } from '../data/db'
import type { Database } from '../data/schema'

export interface TouchOptions {
  /**
   * False when the change leaves every word search finds as it was (a price, an old price, the
   * availability): the records are not reindexed. Touched again without it, they are.
   */
  readonly words?: boolean
}

export interface ContentWrite {
  /** The write transaction the door opened */
  readonly trx: Transaction<Database>
  /** ISO time of the write: createdAt, updatedAt, movedAt, goneAt */
  readonly at: string
  /**
   * Records this write is about to change, move, hide or delete. Call before changing them: the
   * door keeps their public URLs as they were, so a URL a record leaves is announced too.
   */
  touch(ids: Iterable<number>, options?: TouchOptions): Promise<void>
  /** A record this write has just created. */
  created(id: number): void
  /** The write changes what every page shows (the operator's details, a setting): nothing is kept. */
  affectsEveryPage(): void
}

/** The door as the content's own writers see it (catalogue/write-door.ts is the one there is). */
export interface ContentDoor {
  readonly db: Db
  /**
   * Runs `work` in one write transaction with the door's effects; `announce: false` tells IndexNow
   * nothing, `durable: false` does not wait for the disk at the commit (an import's steps).
   */
  write<T>(
    work: (unit: ContentWrite) => Promise<T>,
    options?: { readonly announce?: boolean; readonly durable?: boolean },
  ): Promise<T>
}
