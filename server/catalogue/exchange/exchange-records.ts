// The 1C exchange's ties between 1C's Ид and the site's records (docs/decisions/032-1c-exchange.md):
// `exchangeRecord` keeps, for each group and product the exchange made, 1C's Ид, so a group renamed
// or moved in 1C stays the same section (its old URL answers 301) and a product stays the same page.
// Here: the tallies of a run, the lookups and URLs every writer of the exchange shares, the sections
// of 1C's groups and a full sync's withdrawals. Records the owner made on the site have no Ид and are
// never touched. Every write takes the write door's unit.
import type { Transaction } from 'kysely'
import type { Database } from '../../data/schema'
import type { ContentWrite } from '../../content/content-write'
import { changeRecordUrl } from '../../content/moved-urls'
import { forgetGoneUrl, insertRecord, sortAfterLastChild, updateRecord } from '../../content/structure-store'
import { moveRecord } from '../../content/structure-tree'
import { cleanText } from '../../../src/validation/plain-text'
import { findFreeUrls, slugOf } from '../free-urls'
type Trx = Transaction<Database>

const CHUNK = 500

/** Whole rubles, as the catalogue keeps prices. */
export const rubles = (value: number) => Math.round(value)

export interface Tally {
  groupsCreated: number
  groupsUpdated: number
  groupsWithdrawn: number
  productsCreated: number
  productsUpdated: number
  productsWithdrawn: number
  imagesTaken: number
  offersUpdated: number
  offersSkipped: number
  variants: number
  /** Orders whose status 1C sent back (`type=sale&mode=file`) */
  ordersUpdated: number
}

export const emptyTally = (): Tally => ({
  groupsCreated: 0,
  groupsUpdated: 0,
  groupsWithdrawn: 0,
  productsCreated: 0,
  productsUpdated: 0,
  productsWithdrawn: 0,
  imagesTaken: 0,
  offersUpdated: 0,
  offersSkipped: 0,
  variants: 0,
  ordersUpdated: 0,
})

/** The structure records of 1C's Ид of one kind. */
export async function recordsOf(
  trx: Trx,
  kind: 'group' | 'product',
  externalIds: readonly string[],
): Promise<Map<string, { structureId: number; withdrawn: number }>> {
  const out = new Map<string, { structureId: number; withdrawn: number }>()
  for (let i = 0; i < externalIds.length; i += CHUNK) {
    const rows = await trx
      .selectFrom('exchangeRecord')
      .innerJoin('structure', 'structure.id', 'exchangeRecord.structureId')
      .select(['exchangeRecord.externalId', 'exchangeRecord.structureId', 'exchangeRecord.withdrawn'])
      .where('exchangeRecord.kind', '=', kind)
      .where('exchangeRecord.externalId', 'in', externalIds.slice(i, i + CHUNK))
      .execute()
    for (const row of rows) out.set(row.externalId, { structureId: row.structureId, withdrawn: row.withdrawn })
  }
  return out
}

export async function remember(
  trx: Trx,
  kind: 'group' | 'product',
  externalId: string,
  structureId: number,
  runId: number,
) {
  await trx
    .insertInto('exchangeRecord')
    .values({ kind, externalId, structureId, seenRun: runId, withdrawn: 0 })
    .onConflict((oc) => oc.columns(['kind', 'externalId']).doUpdateSet({ structureId, seenRun: runId, withdrawn: 0 }))
    .execute()
}

/** A free URL for one new record under `parentUrl` (free-urls.ts: the title transliterated, then -2, -3 …). */
async function freeUrl(trx: Trx, parentUrl: string, title: string, fallback: string, folder: boolean) {
  const [url] = await findFreeUrls(trx, [{ parentUrl, name: title, fallback, folder }])
  return url
}

export interface GroupInput {
  readonly id: string
  readonly name: string
  readonly parentId: string | null
}

/**
 * Sections for 1C's groups, parents first: created under their parent's section (a root group under
 * `rootId`, the catalogue), renamed (a new title gives a new URL; the old one answers 301) and moved
 * as 1C has them. Returns the section of every group.
 */
export async function upsertGroups(
  unit: ContentWrite,
  groups: readonly GroupInput[],
  rootId: number,
  runId: number,
  tally: Tally,
): Promise<void> {
  const trx = unit.trx
  // The groups and their parents: a step may take children whose parent an earlier step made.
  const known = await recordsOf(trx, 'group', [
    ...new Set(groups.flatMap((g) => (g.parentId === null ? [g.id] : [g.id, g.parentId]))),
  ])
  const ids = [...known.values()].map((k) => k.structureId)
  const rows = new Map<
    number,
    { id: number; parentId: number | null; title: string; urlFull: string; status: number | null }
  >()
  for (let i = 0; i < ids.length; i += CHUNK) {
    const part = await trx
      .selectFrom('structure')
      .select(['id', 'parentId', 'title', 'urlFull', 'status'])
      .where('id', 'in', ids.slice(i, i + CHUNK))
      .execute()
    for (const row of part) rows.set(row.id, row)
  }
  const sectionOf = new Map<string, number>([...known].map(([ext, k]) => [ext, k.structureId]))
  const urlOf = async (id: number) =>
    (await trx.selectFrom('structure').select('urlFull').where('id', '=', id).executeTakeFirstOrThrow()).urlFull
  for (const group of groups) {
    const parentId = (group.parentId !== null ? sectionOf.get(group.parentId) : undefined) ?? rootId
    const title = cleanText(group.name, 'single-line', 250) || cleanText(group.id, 'single-line', 250) || 'Группа'
    const current = known.get(group.id)
    const parentUrl = await urlOf(parentId)
    const base = `${parentUrl.endsWith('/') ? parentUrl : `${parentUrl}/`}${(await slugOf(title)) || 'item'}`
    if (!current) {
      const urlFull = await freeUrl(trx, parentUrl, title, group.id, true)
      await forgetGoneUrl(unit, urlFull)
      const id = await insertRecord(unit, {
        parentId,
        typeId: 'section',
        title,
        urlFull,
        sort: await sortAfterLastChild(trx, parentId),
      })
      sectionOf.set(group.id, id)
      await remember(trx, 'group', group.id, id, runId)
      tally.groupsCreated++
      continue
    }
    const row = rows.get(current.structureId)!
    let changed = false
    if (row.parentId !== parentId) {
      await moveRecord(unit, { id: row.id, parentId, keepUrl: false })
      changed = true
    }
    if (row.title !== title || current.withdrawn) {
      await updateRecord(unit, row.id, { title, ...(current.withdrawn ? { status: null } : {}) })
      changed = true
    }
    if (row.title !== title) {
      const url = await urlOf(row.id)
      const wanted = `${base}/`
      if (url !== wanted && !url.startsWith(`${base}-`)) {
        const free = await freeUrl(trx, parentUrl, title, group.id, true)
        await changeRecordUrl(unit, { id: row.id, urlFull: url }, free)
      }
    }
    await remember(trx, 'group', group.id, row.id, runId)
    if (changed) tally.groupsUpdated++
  }
}

export async function withdrawUnseen(
  unit: ContentWrite,
  kind: 'group' | 'product',
  runId: number,
  limit: number,
  tally: Tally,
): Promise<number> {
  const trx = unit.trx
  const rows = await trx
    .selectFrom('exchangeRecord')
    .select(['externalId', 'structureId'])
    .where('kind', '=', kind)
    .where('withdrawn', '=', 0)
    .where('seenRun', '<>', runId)
    .limit(limit)
    .execute()
  for (const row of rows) {
    const exists = await trx
      .selectFrom('structure')
      .select('status')
      .where('id', '=', row.structureId)
      .executeTakeFirst()
    if (exists && exists.status !== 410) {
      await updateRecord(unit, row.structureId, { status: 410 })
      if (kind === 'group') tally.groupsWithdrawn++
      else tally.productsWithdrawn++
    }
    await trx
      .updateTable('exchangeRecord')
      .set({ withdrawn: 1 })
      .where('kind', '=', kind)
      .where('externalId', '=', row.externalId)
      .execute()
  }
  return rows.length
}
