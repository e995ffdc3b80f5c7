// The SQL of generic content writes: a model's row by its key, and a structure record's parts (a
// one-to-one part merged or deleted, a list replaced in its order). No rules here: which write is
// allowed, and what a clash means, is writes.ts's business. Runs inside the write door's unit. A
// product's rows are not written here: the product-row repository writes them.
import type { Kysely, Transaction } from 'kysely'
import { kopecksOfRubles } from '../../src/format/money'
import type { Database } from '../data/schema'
import type { ContentWrite } from '../content/content-write'
import type { ModelDef } from './registry'

type Values = Record<string, unknown>
type Trx = Transaction<Database>

const asAny = (trx: Trx) => trx as unknown as Kysely<any>

/** The product rows' tables: written by the product-row repository (catalogue/products/product-rows.ts) alone. */
const PRODUCT_TABLES: ReadonlySet<string> = new Set(['product', 'productImage', 'productProperty'])

/** The model's table, when this generic SQL may write it. */
function writableTable(model: ModelDef): string {
  if (PRODUCT_TABLES.has(model.table)) throw new Error(`${model.table} rows are written by the product-row repository`)
  return model.table
}

/** The writable columns among `values`, booleans as the stored 0/1, rubles as kopecks. */
export function columnsOf(model: ModelDef, values: Values, omit: readonly string[] = []): Record<string, unknown> {
  const row: Record<string, unknown> = {}
  for (const [name, field] of model.fields) {
    if (!field.write || omit.includes(name) || !Object.hasOwn(values, name)) continue
    const value = values[name]
    if (field.type === 'boolean' && typeof value === 'boolean') row[name] = value ? 1 : 0
    // Rubles in the API (checked: at most two decimals), kopecks in the database.
    else if (field.type === 'money' && typeof value === 'number') row[name] = kopecksOfRubles(value)
    else row[name] = value
  }
  return row
}

export async function rowExists(trx: Trx, model: ModelDef, key: unknown): Promise<boolean> {
  const row = await asAny(trx).selectFrom(model.table).select(model.key).where(model.key, '=', key).executeTakeFirst()
  return row !== undefined
}

/** The structure record a row belongs to: the row's own key, or its structureId. */
async function touchOwner(unit: ContentWrite, model: ModelDef, key: unknown, row: Record<string, unknown> = {}) {
  const owner = model.key === 'structureId' ? key : row.structureId
  if (typeof owner === 'number') await unit.touch([owner])
}

/** Inserts a row; returns its key (a generated id, or the key the row carries). */
export async function insertRow(unit: ContentWrite, model: ModelDef, row: Record<string, unknown>): Promise<number> {
  const trx = unit.trx
  await touchOwner(unit, model, row[model.key], row)
  if (model.key !== 'id') {
    await asAny(trx).insertInto(writableTable(model)).values(row).execute()
    return row[model.key] as number
  }
  const created = await asAny(trx)
    .insertInto(writableTable(model))
    .values(row)
    .returning('id')
    .executeTakeFirstOrThrow()
  return Number(created.id)
}

export async function updateRow(
  unit: ContentWrite,
  model: ModelDef,
  key: number,
  row: Record<string, unknown>,
): Promise<void> {
  if (Object.keys(row).length === 0) return
  if (model.key === 'structureId') await unit.touch([key])
  else if (model.fields.has('structureId')) {
    const owner = await asAny(unit.trx)
      .selectFrom(model.table)
      .select('structureId')
      .where(model.key, '=', key)
      .executeTakeFirst()
    if (owner) await unit.touch([Number(owner.structureId)])
  }
  await asAny(unit.trx).updateTable(writableTable(model)).set(row).where(model.key, '=', key).execute()
}

/** A one-to-one part of record `structureId`: merged into the existing row, created, or deleted (null). */
export async function writeOnePart(unit: ContentWrite, part: ModelDef, structureId: number, value: Values | null) {
  const table = writableTable(part)
  await unit.touch([structureId])
  const db = asAny(unit.trx)
  const existing = await db
    .selectFrom(table)
    .select('structureId')
    .where('structureId', '=', structureId)
    .executeTakeFirst()
  if (value === null) {
    if (existing) await db.deleteFrom(table).where('structureId', '=', structureId).execute()
    return
  }
  const row = columnsOf(part, value, ['structureId'])
  if (!existing)
    await db
      .insertInto(table)
      .values({ ...row, structureId })
      .execute()
  else if (Object.keys(row).length > 0) {
    await db.updateTable(table).set(row).where('structureId', '=', structureId).execute()
  }
}

/**
 * A list part of record `structureId`, replaced as a whole: the order of the array is the order on
 * the page. A record just created has no list to delete; the items go in one insert.
 */
export async function replaceListPart(
  unit: ContentWrite,
  part: ModelDef,
  structureId: number,
  items: readonly Values[],
  created = false,
) {
  const table = writableTable(part)
  await unit.touch([structureId])
  const db = asAny(unit.trx)
  if (!created) await db.deleteFrom(table).where('structureId', '=', structureId).execute()
  if (items.length === 0) return
  // Every row names the same columns, so one multi-row insert fits them all.
  const columns = [...part.fields.keys()].filter(
    (name) => part.fields.get(name)!.write && name !== 'structureId' && name !== 'sort',
  )
  const rows = items.map((item, index) => {
    const values = columnsOf(part, item, ['structureId'])
    const row: Record<string, unknown> = { structureId, sort: values.sort ?? index }
    for (const column of columns) row[column] = values[column] ?? null
    return row
  })
  await db.insertInto(table).values(rows).execute()
}
