// The characteristic of each product characteristics row, made when a name and unit first appear
// (issue 46, docs/decisions/042-characteristics-and-filters.md). Called by the product-row
// repository (product-rows.ts) alone, as it writes productProperty rows: whoever writes a product's
// characteristics (the 1C exchange, the price list, the editor) keeps writing the raw names, and
// the owner's choices, kept in the characteristic row, hold across every later write.
import type { Transaction } from 'kysely'
import type { Database } from '../../data/schema'
import { numericValue } from '../../../src/catalogue/characteristics'
import { chunks, propertyRow, type PropertyInput } from './product-row-reads'

const keyOf = (name: string, unit: string | null | undefined) => `${name}\u0000${unit ?? ''}`

/** The characteristics' ids of these names and units, the missing ones created (by key: name NUL unit). */
export async function characteristicIds(
  trx: Transaction<Database>,
  keys: readonly { readonly name: string; readonly unit?: string | null }[],
): Promise<Map<string, number>> {
  const wanted = new Map(keys.map((k) => [keyOf(k.name, k.unit), { name: k.name, unit: k.unit ?? '' }]))
  const ids = new Map<string, number>()
  const read = async () => {
    const names = [...new Set([...wanted.values()].map((k) => k.name))]
    for (const part of chunks(names)) {
      const rows = await trx
        .selectFrom('characteristic')
        .select(['id', 'name', 'unit'])
        .where('name', 'in', part)
        // The brand's row (migration 036) stands for product.vendor, never for a characteristics row.
        .where('source', '=', 'property')
        .execute()
      for (const row of rows) if (wanted.has(keyOf(row.name, row.unit))) ids.set(keyOf(row.name, row.unit), row.id)
    }
  }
  if (wanted.size === 0) return ids
  await read()
  const missing = [...wanted].filter(([key]) => !ids.has(key)).map(([, k]) => k)
  if (missing.length === 0) return ids
  for (const part of chunks(missing)) {
    await trx
      .insertInto('characteristic')
      .values(part.map((k) => ({ name: k.name, unit: k.unit, title: k.name, shownUnit: k.unit })))
      .onConflict((oc) => oc.columns(['name', 'unit']).doNothing())
      .execute()
  }
  await read()
  return ids
}

/** productProperty rows to insert, each with its characteristic and the number its value holds. */
export async function propertyRowsOf(
  trx: Transaction<Database>,
  rows: readonly { readonly structureId: number; readonly row: PropertyInput; readonly sort: number }[],
) {
  const ids = await characteristicIds(
    trx,
    rows.map((r) => r.row),
  )
  return rows.map(({ structureId, row, sort }) => ({
    ...propertyRow(structureId, row, sort),
    characteristicId: ids.get(keyOf(row.name, row.unit)) ?? null,
    numValue: numericValue(row.value),
  }))
}

/** What an edit of a row's value and unit writes: its characteristic follows the unit. */
export async function propertyEditOf(trx: Transaction<Database>, name: string, value: string, unit: string | null) {
  const ids = await characteristicIds(trx, [{ name, unit }])
  return { value, unit, characteristicId: ids.get(keyOf(name, unit)) ?? null, numValue: numericValue(value) }
}
