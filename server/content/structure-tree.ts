// The back office's view of the `structure` table at scale (issue 27, decision 028), beside
// structure-store.ts as part of the same repository: a section's children a page at a time with
// their own child counts (one grouped, indexed query), a record moved to another section (its URL
// kept or changed, the old URLs redirecting through moved-urls.ts), and a record moved one place
// among its siblings.
import type { Kysely, Transaction } from 'kysely'
import type { Database } from '../data/schema'
import { HttpError } from '../http/http-error'
import { urlUnder } from '../../src/site/url'
import type { ContentWrite } from './content-write'
import { changeRecordUrl, chunks } from './moved-urls'
import { sortAfterLastChild, updateRecord, type RouteEntry } from './structure-store'

type Queryable = Kysely<Database> | Transaction<Database>

/** A record as the tree lists it, with how many records sit directly under it. */
export interface TreeRow extends Omit<RouteEntry, 'state'> {
  children: number
}

const TREE_COLUMNS = ['id', 'parentId', 'typeId', 'title', 'urlFull', 'sort', 'published', 'status'] as const

/** How many records sit directly under each of these records: one grouped query per 500 ids. */
export async function childCounts(db: Queryable, ids: readonly number[]): Promise<Map<number, number>> {
  const counts = new Map<number, number>()
  for (const chunk of chunks(ids)) {
    const rows = await db
      .selectFrom('structure')
      .select((eb) => ['parentId', eb.fn.countAll<number | string | bigint>().as('count')])
      .where('parentId', 'in', chunk)
      .groupBy('parentId')
      .execute()
    for (const row of rows) counts.set(Number(row.parentId), Number(row.count))
  }
  return counts
}

/** A page of a record's children (null: the top level) in the site's order (sort, id), and their number. */
export async function listChildren(
  db: Queryable,
  parentId: number | null,
  skip: number,
  take: number,
): Promise<{ rows: TreeRow[]; total: number }> {
  const under = <Q extends { where: (...args: any[]) => Q }>(query: Q): Q =>
    parentId === null ? query.where('parentId', 'is', null) : query.where('parentId', '=', parentId)
  const [records, total] = await Promise.all([
    under(db.selectFrom('structure').select([...TREE_COLUMNS]))
      .orderBy('sort')
      .orderBy('id')
      .limit(take)
      .offset(skip)
      .execute(),
    under(db.selectFrom('structure').select((eb) => eb.fn.countAll<number | string | bigint>().as('count')))
      .executeTakeFirstOrThrow()
      .then((row) => Number(row.count)),
  ])
  const counts = await childCounts(
    db,
    records.map((r) => r.id),
  )
  return {
    rows: records.map((r) => ({ ...r, published: Boolean(r.published), children: counts.get(r.id) ?? 0 })),
    total,
  }
}

interface MoveRequest {
  readonly id: number
  readonly parentId: number
  /** false: the record (and the records under it that share its path) take the new parent's path */
  readonly keepUrl: boolean
}

/**
 * Moves a record under another parent, last among its new siblings. With a new URL, every record
 * of its subtree whose URL starts with the record's old path moves with it, and each old URL is
 * kept as a redirect to its record. Throws HttpError 404/400/409 with a Russian message.
 */
export async function moveRecord(unit: ContentWrite, move: MoveRequest): Promise<{ urlFull: string }> {
  const trx = unit.trx
  const record = await trx
    .selectFrom('structure')
    .select(['id', 'parentId', 'urlFull'])
    .where('id', '=', move.id)
    .executeTakeFirst()
  if (!record) throw new HttpError(404, `Запись с id = ${move.id} не найдена`, 'not_found')
  if (record.urlFull === '/') throw new HttpError(409, 'Главную страницу сайта перенести нельзя', 'conflict')
  const parent = await trx
    .selectFrom('structure')
    .select(['id', 'urlFull'])
    .where('id', '=', move.parentId)
    .executeTakeFirst()
  if (!parent) {
    throw new HttpError(400, 'Раздел, в который переносится запись, не найден', 'validation_failed', {
      parentId: 'Раздел не найден',
    })
  }
  // Not into itself or anything under it: walk up from the new parent.
  const seen = new Set<number>()
  for (let cursor: number | null = parent.id; cursor !== null && !seen.has(cursor);) {
    if (cursor === record.id) {
      throw new HttpError(400, 'Нельзя перенести запись внутрь неё самой', 'validation_failed', {
        parentId: 'Выберите раздел вне переносимой записи',
      })
    }
    seen.add(cursor)
    const up: { parentId: number | null } | undefined = await trx
      .selectFrom('structure')
      .select('parentId')
      .where('id', '=', cursor)
      .executeTakeFirst()
    cursor = up?.parentId ?? null
  }
  const sort = await sortAfterLastChild(trx, parent.id)
  await updateRecord(unit, record.id, { parentId: parent.id, sort })
  if (move.keepUrl) return { urlFull: record.urlFull }

  const newUrl = urlUnder(parent.urlFull, record.urlFull)
  try {
    await changeRecordUrl(unit, record, newUrl)
  } catch (error) {
    if (error instanceof HttpError && error.statusCode === 409) {
      throw new HttpError(409, error.message, 'conflict', {
        urlFull: 'Адрес в новом разделе уже занят: перенесите с сохранением адреса или измените его',
      })
    }
    throw error
  }
  return { urlFull: newUrl }
}

/**
 * Moves a record one place up or down among its siblings (sort, id): it trades sort values with
 * its neighbour. Siblings that share a sort value are first numbered 0, 1, 2… in their order.
 */
export async function moveAmongSiblings(unit: ContentWrite, id: number, direction: 'up' | 'down'): Promise<void> {
  const trx = unit.trx
  const record = await trx
    .selectFrom('structure')
    .select(['id', 'parentId', 'sort'])
    .where('id', '=', id)
    .executeTakeFirst()
  if (!record) throw new HttpError(404, `Запись с id = ${id} не найдена`, 'not_found')
  const selectSiblings = () => {
    const q = trx.selectFrom('structure').select(['id', 'sort'])
    return record.parentId === null ? q.where('parentId', 'is', null) : q.where('parentId', '=', record.parentId)
  }
  const up = direction === 'up'
  const neighbour = await selectSiblings()
    .where((eb) =>
      eb.or([
        eb('sort', up ? '<' : '>', record.sort),
        eb.and([eb('sort', '=', record.sort), eb('id', up ? '<' : '>', record.id)]),
      ]),
    )
    .orderBy('sort', up ? 'desc' : 'asc')
    .orderBy('id', up ? 'desc' : 'asc')
    .limit(1)
    .executeTakeFirst()
  if (!neighbour) {
    throw new HttpError(409, up ? 'Запись уже первая в разделе' : 'Запись уже последняя в разделе', 'conflict')
  }
  let mine = record.sort
  let theirs = neighbour.sort
  // The two records change places in their parent's lists: the door announces the parent's page.
  await unit.touch([record.id, neighbour.id])
  if (mine === theirs) {
    const all = await selectSiblings().orderBy('sort').orderBy('id').execute()
    for (const [index, sibling] of all.entries()) {
      if (sibling.sort !== index) {
        await trx.updateTable('structure').set({ sort: index }).where('id', '=', sibling.id).execute()
      }
      if (sibling.id === record.id) mine = index
      if (sibling.id === neighbour.id) theirs = index
    }
  }
  await trx.updateTable('structure').set({ sort: theirs }).where('id', '=', record.id).execute()
  await trx.updateTable('structure').set({ sort: mine }).where('id', '=', neighbour.id).execute()
}
