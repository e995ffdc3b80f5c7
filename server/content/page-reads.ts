// What a page shows of its own record (decision 018: compiled once, run on every rendering): its
// title, text and meta, a section card's picture, the home page's slides and advantages. Part of
// the structure repository (structure-store.ts), reads only.
import type { Kysely, Transaction } from 'kysely'
import { executeCompiled } from '../data/db'
import type { Database } from '../data/schema'

type Queryable = Kysely<Database> | Transaction<Database>

const META_COLUMNS = ['metaTitle', 'metaDescription', 'metaImage', 'metaRobots', 'metaJsonLd'] as const

/** What a page shows of its own record: title, text and meta. */
// The page reads below run on every rendering of a page: compiled once (executeCompiled).
export async function loadPageRecord(db: Queryable, id: number) {
  const [record] = await executeCompiled(db, 'page record', [id], () =>
    db
      .selectFrom('structure')
      .select(['id', 'title', 'urlFull', 'content', ...META_COLUMNS])
      .where('id', '=', id),
  )
  return record
}

export type PageRecord = NonNullable<Awaited<ReturnType<typeof loadPageRecord>>>

/** The share image of each given record (a section's picture on its card), by id. */
export async function loadMetaImages(db: Queryable, ids: readonly number[]): Promise<Map<number, string | null>> {
  if (ids.length === 0) return new Map()
  const rows = await executeCompiled(db, `meta images ${ids.length}`, ids, () =>
    db
      .selectFrom('structure')
      .select(['id', 'metaImage'])
      .where('id', 'in', [...ids]),
  )
  return new Map(rows.map((r) => [r.id, r.metaImage]))
}

/** The home page's slides and advantages, in their order. */
export async function loadHomeLists(db: Queryable, id: number) {
  const [slides, advantages] = await Promise.all([
    executeCompiled(db, 'slides', [id], () =>
      db
        .selectFrom('sliderItem')
        .select(['id', 'image', 'title'])
        .where('structureId', '=', id)
        .orderBy('sort')
        .orderBy('id'),
    ),
    executeCompiled(db, 'advantages', [id], () =>
      db
        .selectFrom('advantage')
        .select(['id', 'image', 'title', 'description'])
        .where('structureId', '=', id)
        .orderBy('sort')
        .orderBy('id'),
    ),
  ])
  return { slides, advantages }
}
