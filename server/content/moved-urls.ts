// A record's URL changed, with the URLs it leaves behind (decision 028): the records under it whose
// URLs start with its old path take the new one too (a section's products follow the section; a
// record with a URL of its own keeps it), and every old URL goes into `movedUrl`, where it answers
// 301 to the record. «Перенести» (structure-tree.ts) and a URL edited by hand (the generic write,
// model-api/writes.ts) both come here. Part of the structure repository.
import type { Kysely, Transaction } from 'kysely'
import type { Database } from '../data/schema'
import { HttpError } from '../http/http-error'
import type { ContentWrite } from './content-write'

type Queryable = Kysely<Database> | Transaction<Database>

/** Keys of one `in (…)` list: far below the parameter limits of both dialects. */
const KEYS_PER_QUERY = 500
/** Records whose URL one change may change (a section with its whole subtree). */
export const MAX_MOVED_URLS = 10_000

/** The items in lists of at most 500, for `in (…)`. */
export function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = []
  for (let i = 0; i < items.length; i += KEYS_PER_QUERY) out.push(items.slice(i, i + KEYS_PER_QUERY))
  return out
}

/** The record an old URL moved to (decision 028), or null. */
export async function movedTarget(db: Queryable, urlFull: string): Promise<number | null> {
  const row = await db.selectFrom('movedUrl').select('structureId').where('urlFull', '=', urlFull).executeTakeFirst()
  return row?.structureId ?? null
}

/** The record and every record under it, level by level: id, URL. */
async function subtree(db: Queryable, id: number, urlFull: string) {
  const found = [{ id, urlFull }]
  let level = [id]
  while (level.length > 0) {
    const next: number[] = []
    for (const chunk of chunks(level)) {
      const rows = await db.selectFrom('structure').select(['id', 'urlFull']).where('parentId', 'in', chunk).execute()
      for (const row of rows) {
        found.push(row)
        next.push(row.id)
      }
    }
    if (found.length > MAX_MOVED_URLS) {
      throw new HttpError(
        400,
        `В разделе больше ${MAX_MOVED_URLS} вложенных записей: его адрес нельзя изменить за один раз`,
        'too_many_records',
      )
    }
    level = next
  }
  return found
}

/**
 * Gives the record `newUrl`; the records under it whose URLs start with its old path move with it
 * (not under the home page `/`: that would be the whole site), and each old URL becomes a redirect
 * to its record. Throws HttpError 409 (nothing changed) when a new URL belongs to another record.
 */
export async function changeRecordUrl(
  unit: ContentWrite,
  record: { readonly id: number; readonly urlFull: string },
  newUrl: string,
): Promise<void> {
  if (newUrl === record.urlFull) return
  const { trx, at } = unit
  const oldPrefix = record.urlFull.endsWith('/') ? record.urlFull : `${record.urlFull}/`
  const newPrefix = newUrl.endsWith('/') ? newUrl : `${newUrl}/`
  const followers =
    record.urlFull === '/'
      ? [{ id: record.id, urlFull: record.urlFull }]
      : await subtree(trx, record.id, record.urlFull)
  const changes = followers.flatMap(({ id, urlFull }) => {
    if (id === record.id) return [{ id, from: urlFull, to: newUrl }]
    return urlFull.startsWith(oldPrefix) ? [{ id, from: urlFull, to: newPrefix + urlFull.slice(oldPrefix.length) }] : []
  })
  const movingIds = new Set(changes.map((c) => c.id))
  for (const chunk of chunks(changes)) {
    const taken = await trx
      .selectFrom('structure')
      .select(['id', 'urlFull'])
      .where(
        'urlFull',
        'in',
        chunk.map((c) => c.to),
      )
      .execute()
    const other = taken.find((row) => !movingIds.has(row.id))
    if (other) {
      throw new HttpError(409, `Адрес «${other.urlFull}» уже занят другой записью`, 'conflict', {
        urlFull: 'Адрес уже занят другой записью: выберите другой',
      })
    }
  }
  // Every record that moves, as it was: the door announces its old URL and its new one.
  await unit.touch(changes.map((c) => c.id))
  // Two passes, so that no moment has two records on one URL (urlFull is unique).
  for (const change of changes) {
    await trx
      .updateTable('structure')
      .set({ urlFull: `~moving ${change.id}` })
      .where('id', '=', change.id)
      .execute()
  }
  for (const change of changes) {
    await trx.updateTable('structure').set({ urlFull: change.to }).where('id', '=', change.id).execute()
  }
  for (const chunk of chunks(changes)) {
    const targets = chunk.map((c) => c.to)
    await trx.deleteFrom('movedUrl').where('urlFull', 'in', targets).execute()
    await trx.deleteFrom('goneUrl').where('urlFull', 'in', targets).execute()
    await trx
      .insertInto('movedUrl')
      .values(chunk.map((c) => ({ urlFull: c.from, structureId: c.id, movedAt: at })))
      .onConflict((oc) => oc.column('urlFull').doUpdateSet((eb) => ({ structureId: eb.ref('excluded.structureId') })))
      .execute()
  }
}
