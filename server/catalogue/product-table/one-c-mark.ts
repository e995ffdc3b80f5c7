// The mark «Из 1С» of «Товары» and the editor (docs/decisions/044-onec-owned-fields.md): a product
// the 1C exchange made (it has 1C's Ид in exchangeRecord) and the fields the exchange overwrites in
// it, so the screens say so before an edit 1C will overwrite is saved. Never a credential: the
// answer is the product's mark and the owner's choice of fields.
import type { Kysely } from 'kysely'
import type { Database } from '../../data/schema'
import type { OneCField } from '../../../src/catalogue/one-c-fields'

const CHUNK = 500

/** Of these products, the ones that come from 1C. */
export async function fromOneC(db: Kysely<Database>, ids: readonly number[]): Promise<Set<number>> {
  const out = new Set<number>()
  for (let i = 0; i < ids.length; i += CHUNK) {
    const rows = await db
      .selectFrom('exchangeRecord')
      .select('structureId')
      .where('kind', '=', 'product')
      .where('structureId', 'in', ids.slice(i, i + CHUNK))
      .execute()
    for (const row of rows) out.add(row.structureId)
  }
  return out
}

/** A product's mark: null when it is the site's own, else the fields 1C overwrites in it. */
export async function oneCMark(
  db: Kysely<Database>,
  id: number,
  overwrite: readonly OneCField[],
): Promise<readonly OneCField[] | null> {
  return (await fromOneC(db, [id])).has(id) ? overwrite : null
}

/**
 * How many of the chosen products 1C will set back at its next exchange after an action that
 * changes `field` (the action's preview says so before the owner's yes).
 */
export async function overwrittenCount(
  db: Kysely<Database>,
  ids: readonly number[],
  field: OneCField | null,
  overwrite: readonly OneCField[],
): Promise<number> {
  if (field === null || !overwrite.includes(field) || ids.length === 0) return 0
  return (await fromOneC(db, ids)).size
}
