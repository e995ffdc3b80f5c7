// One row of a price list against one product: what it changes in the product and its
// characteristics. price-import.ts plans and applies whole files with these.
import type { PriceRow } from './price-columns'
import type { ProductChange, PropertyOp, StoredProduct } from './price-store'

/** What a row changes in a product's characteristics: inserts, updates and deletes. */
export function propertyOps(row: PriceRow, product: StoredProduct): PropertyOp[] {
  const ops: PropertyOp[] = []
  for (const [name, { value, unit }] of row.properties) {
    const stored = product.properties.find((p) => p.name === name)
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
