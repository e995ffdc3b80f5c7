// What a page shows of its own record (decision 018: compiled once, run on every rendering): its
// title, text and meta, a section card's picture, the home page's slides and advantages. Part of
// the structure repository (structure-store.ts), reads only.
import { sql, type Kysely, type Transaction } from 'kysely'
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

/** The home page's slides and advantages, in their order: one statement for both lists. */
export async function loadHomeLists(db: Queryable, id: number) {
  const rows = await executeCompiled(db, 'home lists', [id, id], () =>
    db
      .selectFrom('sliderItem')
      .select((eb) => [
        'id',
        eb.ref('image').$castTo<string | null>().as('image'),
        eb.ref('title').$castTo<string | null>().as('title'),
        sql<string | null>`null`.as('description'),
        'sort',
        sql<number>`0`.as('list'),
      ])
      .where('structureId', '=', id)
      .unionAll(
        db
          .selectFrom('advantage')
          .select((eb) => [
            'id',
            'image',
            eb.ref('title').$castTo<string | null>().as('title'),
            'description',
            'sort',
            sql<number>`1`.as('list'),
          ])
          .where('structureId', '=', id),
      )
      .orderBy('list')
      .orderBy('sort')
      .orderBy('id'),
  )
  const slides: { id: number; image: string; title: string | null }[] = []
  const advantages: { id: number; image: string | null; title: string; description: string | null }[] = []
  for (const { list, id: rowId, image, title, description } of rows) {
    if (Number(list) === 0) slides.push({ id: rowId, image: image as string, title })
    else advantages.push({ id: rowId, image, title: title as string, description })
  }
  return { slides, advantages }
}
