// The sections of 1C's groups (docs/decisions/032-1c-exchange.md): each group a section under its
// parent's, tied to its Ид (exchange-records.ts), so a group renamed in 1C keeps its section and
// takes a new URL (the old one answers 301), and a group moved in 1C moves. Every write takes the
// write door's unit.
import type { Transaction } from 'kysely'
import type { Database } from '../../data/schema'
import type { ContentWrite } from '../../content/content-write'
import { changeRecordUrl } from '../../content/moved-urls'
import { forgetGoneUrl, insertRecord, sortAfterLastChild, updateRecord } from '../../content/structure-store'
import { moveRecord } from '../../content/structure-tree'
import { cleanText } from '../../../src/validation/plain-text'
import { findFreeUrls, slugOf } from '../free-urls'
import { recordsOf, remember, type Tally } from './exchange-records'

type Trx = Transaction<Database>

const CHUNK = 500

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
