// One row of a price list against one product: what it changes in the product and its
// characteristics. price-import.ts plans and applies whole files with these.
import type { PriceRow } from './price-columns'
import type { ProductChange, PropertyOp, StoredProduct } from './price-store'

/**
 * What a row changes in a product's characteristics: inserts, updates and deletes. A column names a
 * characteristic and its unit: it matches the product's characteristic of that name in that unit; a
 * characteristic in a unit no column of the file names takes the column's unit (the owner changed
 * the unit); an empty cell deletes only the characteristic in the column's unit. So a file with
 * «Мощность, Вт» and «Мощность, л.с.» (what the export gives when products differ) changes nothing.
 */
export function propertyOps(row: PriceRow, product: StoredProduct): PropertyOp[] {
  const ops: PropertyOp[] = []
  const columns = [...row.properties.values()]
  const taken = new Set<number>()
  for (const { name, value, unit } of columns) {
    const named = product.properties.filter((p) => p.name === name && !taken.has(p.id))
    const stored =
      named.find((p) => p.unit === unit) ??
      (value === null ? undefined : named.find((p) => !columns.some((c) => c.name === name && c.unit === p.unit)))
    if (stored) taken.add(stored.id)
    if (value === null) {
      if (stored) ops.push({ kind: 'delete', id: stored.id })
    } else if (!stored) ops.push({ kind: 'insert', name, value, unit })
    else if (stored.value !== value || stored.unit !== unit) ops.push({ kind: 'update', id: stored.id, value, unit })
  }
  return ops
}

/** The product's own fields a row changes (nothing for a field the row leaves out or repeats). */
export function productChange(row: PriceRow, product: StoredProduct): ProductChange {
  const change: { -readonly [K in keyof ProductChange]: ProductChange[K] } = {}
  if (row.name !== undefined && row.name !== product.title) change.title = row.name
  for (const field of ['price', 'oldPrice', 'availability', 'vendor'] as const) {
    if (row[field] !== undefined && row[field] !== product[field]) Object.assign(change, { [field]: row[field] })
  }
  return change
}
