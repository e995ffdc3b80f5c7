// The one owner of the `structure` table's queries (lookups, the consent text, the write
// API's checks, and the writers every unit of the write door calls: catalogue/write-door.ts), as
// the lead store owns `feedback`; a page's own reads are in page-reads.ts. Rows are mapped here, at
// the edge: callers get entries with booleans and plain values, never the stored 0/1 flags.
import type { Kysely, Transaction, Updateable } from 'kysely'
import type { Database, NewStructure, StructureTable } from '../data/schema'
import type { ContentWrite } from './content-write'
import { isPublicRecord, type PublicState } from './visibility'

type Queryable = Kysely<Database> | Transaction<Database>

/** A record as the route map knows it: enough to route, title and nest it. */
export interface RouteEntry {
  id: number
  parentId: number | null
  typeId: string
  title: string
  urlFull: string
  sort: number
  published: boolean
  status: number | null
  /** What its URL answers, the records above it included (content/visibility.ts) */
  state: PublicState
}

/** An index record with its part: the site's logo, phone and texts (the route map load). */
export interface IndexEntry {
  id: number
  parentId: number | null
  typeId: string
  urlFull: string
  index: {
    logo: string | null
    tel: string | null
    telText: string | null
    description: string | null
    copyright: string | null
  }
}

/** A record's route as stored (the 0/1 flag); the route map makes it an entry (route-map-load.ts). */
export type RouteRow = Omit<RouteEntry, 'published' | 'state'> & { published: number }

/** The id of the record at `urlFull` (other than `exceptId`), or null. */
export async function findIdByUrl(db: Queryable, urlFull: string, exceptId?: number): Promise<number | null> {
  let query = db.selectFrom('structure').select('id').where('urlFull', '=', urlFull)
  if (exceptId !== undefined) query = query.where('id', '<>', exceptId)
  return (await query.executeTakeFirst())?.id ?? null
}

export async function recordExists(db: Queryable, id: number): Promise<boolean> {
  return (await db.selectFrom('structure').select('id').where('id', '=', id).executeTakeFirst()) !== undefined
}

/** The record's URL; null when there is no such record. */
export async function urlOf(db: Queryable, id: number): Promise<string | null> {
  return (await db.selectFrom('structure').select('urlFull').where('id', '=', id).executeTakeFirst())?.urlFull ?? null
}

/** The sort value that puts a new child last under the record: one more than its children's highest. */
export async function sortAfterLastChild(db: Queryable, parentId: number): Promise<number> {
  return (await sortsAfterLastChild(db, [parentId])).get(parentId)!
}

/** sortAfterLastChild of each of `parentIds` (per 500), from the end of its (parentId, sort) index (decision 032). */
export async function sortsAfterLastChild(db: Queryable, parentIds: readonly number[]): Promise<Map<number, number>> {
  const out = new Map<number, number>(parentIds.map((id) => [id, 0]))
  const ids = [...out.keys()]
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await db
      .selectFrom('structure as parent')
      .select((eb) => [
        'parent.id',
        eb
          .selectFrom('structure as child')
          .select((child) => child.fn.max('child.sort').as('sort'))
          .whereRef('child.parentId', '=', 'parent.id')
          .as('sort'),
      ])
      .where('parent.id', 'in', ids.slice(i, i + 500))
      .execute()
    for (const row of rows) if (row.sort !== null) out.set(row.id, Number(row.sort) + 1)
  }
  return out
}

/** The record's parent id; undefined when there is no such record. */
export async function parentOf(db: Queryable, id: number): Promise<number | null | undefined> {
  return (await db.selectFrom('structure').select('parentId').where('id', '=', id).executeTakeFirst())?.parentId
}

/** A URL whose record was deleted: it answers 410. */
export async function isGoneUrl(db: Queryable, urlFull: string): Promise<boolean> {
  const row = await db.selectFrom('goneUrl').select('urlFull').where('urlFull', '=', urlFull).executeTakeFirst()
  return row !== undefined
}

/** The title and text of the public record at `urlFull` (the consent page). */
export async function loadPublishedText(
  db: Queryable,
  urlFull: string,
): Promise<{ title: string; content: string | null } | undefined> {
  return db
    .selectFrom('structure')
    .select(['title', 'content'])
    .where('urlFull', '=', urlFull)
    .where(isPublicRecord)
    .executeTakeFirst()
}

export async function hasAnyRecord(db: Queryable): Promise<boolean> {
  return (await db.selectFrom('structure').select('id').limit(1).executeTakeFirst()) !== undefined
}

/** What a new record holds in a column its writer leaves unset. */
function recordDefaults(unit: ContentWrite) {
  return {
    parentId: null,
    sort: 0,
    published: 1,
    status: null,
    content: null,
    metaTitle: null,
    metaDescription: null,
    metaImage: null,
    metaRobots: null,
    metaJsonLd: null,
    createdAt: unit.at,
    updatedAt: unit.at,
  }
}

/** A new record with the defaults of an unset column (created and updated at the write's time); returns its id. */
export async function insertRecord(
  unit: ContentWrite,
  row: Partial<NewStructure> & Pick<NewStructure, 'typeId' | 'title' | 'urlFull'>,
): Promise<number> {
  const created = await unit.trx
    .insertInto('structure')
    .values({ ...recordDefaults(unit), ...row })
    .returning('id')
    .executeTakeFirstOrThrow()
  const id = Number(created.id)
  unit.created(id)
  return id
}

/**
 * Many new records in one statement (an import's chunk); returns their ids in the order given.
 * Each row's URL must be free: the ids are matched back by it.
 */
export async function insertRecords(
  unit: ContentWrite,
  rows: readonly (Partial<NewStructure> & Pick<NewStructure, 'typeId' | 'title' | 'urlFull'>)[],
): Promise<number[]> {
  if (rows.length === 0) return []
  const created = await unit.trx
    .insertInto('structure')
    .values(rows.map((row) => ({ ...recordDefaults(unit), ...row })))
    .returning(['id', 'urlFull'])
    .execute()
  const byUrl = new Map(created.map((row) => [row.urlFull, Number(row.id)]))
  return rows.map((row) => {
    const id = byUrl.get(row.urlFull)!
    unit.created(id)
    return id
  })
}

/** Changes the record's columns; `updatedAt` is the write's time unless the row says otherwise. */
export async function updateRecord(unit: ContentWrite, id: number, row: Updateable<StructureTable>): Promise<void> {
  await unit.touch([id])
  await unit.trx
    .updateTable('structure')
    .set({ updatedAt: unit.at, ...row })
    .where('id', '=', id)
    .execute()
}

/** The record's URL and how many records sit under it; undefined when there is no such record. */
export async function loadDeletable(
  db: Queryable,
  id: number,
): Promise<{ urlFull: string; children: number } | undefined> {
  const record = await db.selectFrom('structure').select('urlFull').where('id', '=', id).executeTakeFirst()
  if (!record) return undefined
  const { count } = await db
    .selectFrom('structure')
    .select((eb) => eb.fn.countAll<number | string | bigint>().as('count'))
    .where('parentId', '=', id)
    .executeTakeFirstOrThrow()
  return { urlFull: record.urlFull, children: Number(count) }
}

/** Deletes a record without children and its parts; its URL joins goneUrl and answers 410 from then on. */
export async function deleteRecordAndParts(unit: ContentWrite, id: number, urlFull: string): Promise<void> {
  await unit.touch([id])
  const db = unit.trx
  const goneAt = unit.at
  // Explicit, not left to the schema's cascade: the rows gone do not depend on how the database was opened.
  // The URLs it had before it moved (decision 028) answer 410 with its own.
  const former = await db.selectFrom('movedUrl').select('urlFull').where('structureId', '=', id).execute()
  const parts = [
    'siteIndex',
    'product',
    'sliderItem',
    'advantage',
    'productImage',
    'productProperty',
    'movedUrl',
  ] as const
  for (const table of parts) {
    await db.deleteFrom(table).where('structureId', '=', id).execute()
  }
  await db.deleteFrom('structure').where('id', '=', id).execute()
  for (const gone of [urlFull, ...former.map((row) => row.urlFull)]) {
    await db
      .insertInto('goneUrl')
      .values({ urlFull: gone, goneAt })
      .onConflict((oc) => oc.column('urlFull').doUpdateSet({ goneAt }))
      .execute()
  }
}

/** A URL taken by a record again is no longer gone. */
export async function forgetGoneUrl(unit: ContentWrite, urlFull: string): Promise<void> {
  await unit.trx.deleteFrom('goneUrl').where('urlFull', '=', urlFull).execute()
}

/** URLs taken by new records (an import's chunk) are no longer gone. */
export async function forgetGoneUrls(unit: ContentWrite, urls: readonly string[]): Promise<void> {
  if (urls.length > 0) await unit.trx.deleteFrom('goneUrl').where('urlFull', 'in', urls).execute()
}

/**
 * Gives every image column `table.column` that names `from` the name `to` (an upload renamed by the
 * media migration), touching the records they belong to (the column `owner` names them). Returns
 * how many rows changed.
 */
export async function renameImage(
  unit: ContentWrite,
  where: { readonly table: string; readonly column: string; readonly owner: string },
  from: string,
  to: string,
): Promise<number> {
  const db = unit.trx as unknown as Kysely<any>
  const owner = where.owner
  const rows: Array<Record<string, unknown>> = await db
    .selectFrom(where.table)
    .select(owner)
    .where(where.column, '=', from)
    .execute()
  if (rows.length === 0) return 0
  await unit.touch(rows.map((row) => Number(row[owner])))
  await db
    .updateTable(where.table)
    .set({ [where.column]: to })
    .where(where.column, '=', from)
    .execute()
  return rows.length
}
