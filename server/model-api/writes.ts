// Content writes of the generic API: the rules of the tree around the SQL (write-rows.ts) in one
// write transaction. A structure record may carry its parts (index, product, sliderItems[],
// advantages[], images[], properties[]): all of it is written or none. A product's image is its
// gallery's first whichever way it is written, and its old price stays above its price. Its parent must exist and must not be the record
// itself or one of its descendants; its URL must be free, and a URL changed leaves a redirect (its
// subtree following, as «Перенести» does: content/moved-urls.ts). The schema of a write is write-schema.ts.
import type { Transaction } from 'kysely'
import type { Database, NewStructure } from '../data/schema'
import {
  findIdByUrl,
  forgetGoneUrl,
  insertRecord,
  parentOf,
  recordExists,
  updateRecord,
  urlOf,
} from '../content/structure-store'
import { changeRecordUrl } from '../content/moved-urls'
import { reindexProducts } from '../catalogue/search/search-index'
import { bumpContentVersion, now, writeTransaction, type Db } from '../data/db'
import { enqueueRecords } from '../catalogue/indexnow/indexnow-outbox'
import { HttpError } from '../http/http-error'
import { executeQuery } from './query-executor'
import type { Row, SelectNode } from './query-tree'
import { findModel, partModel, STRUCTURE_PARTS, type ModelDef } from './registry'
import { checkProductPrices, syncMainImage } from '../catalogue/products/product-store'
import { partKind, type WriteMode } from './write-schema'
import { columnsOf, insertRow, replaceListPart, rowExists, updateRow, writeOnePart } from './write-rows'

type Values = Record<string, unknown>

function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === '23505'
}

function isForeignKeyViolation(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code
  return code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || code === '23503'
}

/**
 * Creates or updates one record (a structure record with its parts) in one write transaction
 * and returns its key. Throws HttpError 400/404/409 with a Russian message.
 */
export async function writeRecord(db: Db, model: ModelDef, mode: WriteMode, values: Values): Promise<number> {
  try {
    return await writeTransaction(db, async (trx) => {
      const key =
        model.name === 'structure' ? await writeStructure(trx, mode, values) : await writeFlat(trx, model, mode, values)
      // The search index in the same transaction (docs/decisions/030-search.md)
      const record = model.name === 'structure' || model.key === 'structureId' ? key : values.structureId
      if (typeof record === 'number') await reindexProducts(trx, [record])
      await bumpContentVersion(trx)
      // The record's URL and its parent's go to IndexNow with the write (when it is on).
      const changed = model.name === 'structure' ? key : (values.structureId as number | undefined)
      await enqueueRecords(db, trx, changed === undefined ? [] : [changed])
      return key
    })
  } catch (error) {
    throw translateStorageError(error)
  }
}

/** A constraint the database refused, in the API's words; anything else as it was. */
function translateStorageError(error: unknown): unknown {
  if (error instanceof HttpError) return error
  if (isUniqueViolation(error)) return new HttpError(409, 'Такая запись уже существует', 'conflict')
  if (isForeignKeyViolation(error)) return new HttpError(400, 'Связанная запись не найдена', 'invalid_reference')
  return error
}

/** One record of a batch: structure write values, and optionally an earlier record of the batch as parent. */
export interface BatchRecord {
  values: Values
  /** Position of the parent among the batch's earlier records */
  parent?: number
}

/**
 * Writes a batch of structure records in one write transaction (the content import): a record whose
 * URL exists updates that record, any other is created. Returns their ids in order. All or nothing.
 */
export async function writeStructureBatch(db: Db, records: readonly BatchRecord[]): Promise<number[]> {
  try {
    return await writeTransaction(db, async (trx) => {
      const ids: number[] = []
      for (const [i, record] of records.entries()) {
        const values = { ...record.values }
        if (record.parent !== undefined) values.parentId = ids[record.parent]
        const existing = await findIdByUrl(trx, values.urlFull as string)
        try {
          ids.push(
            existing === null
              ? await writeStructure(trx, 'create', values)
              : await writeStructure(trx, 'update', { ...values, id: existing }),
          )
        } catch (error) {
          if (!(error instanceof HttpError)) throw error
          const errors = Object.fromEntries(
            Object.entries(error.errors ?? {}).map(([k, v]) => [`records.${i}.${k}`, v]),
          )
          throw new HttpError(
            error.statusCode,
            `Запись ${i + 1} (${String(values.urlFull)}): ${error.message}`,
            error.code,
            errors,
          )
        }
      }
      // The search index in the same transaction, every record of the batch at once (decision 030)
      await reindexProducts(trx, ids)
      await bumpContentVersion(trx)
      // Their URLs go to IndexNow with the batch, as with a single write (when it is on).
      await enqueueRecords(db, trx, ids)
      return ids
    })
  } catch (error) {
    throw translateStorageError(error)
  }
}

async function writeFlat(trx: Transaction<Database>, model: ModelDef, mode: WriteMode, values: Values) {
  if (Object.hasOwn(values, 'structureId')) await requireStructure(trx, values.structureId as number, 'structureId')
  if (mode === 'create') {
    if (model.key !== 'id' && (await rowExists(trx, model, values[model.key]))) {
      throw new HttpError(
        409,
        `У записи ${String(values[model.key])} уже есть ${model.name}: измените её методом PATCH`,
        'conflict',
      )
    }
    const key = await insertRow(trx, model, columnsOf(model, values))
    await afterProductWrite(trx, model, key, values)
    return key
  }
  const key = values[model.key] as number
  if (!(await rowExists(trx, model, key))) {
    throw new HttpError(404, `Запись ${model.name} с ${model.key} = ${key} не найдена`, 'not_found')
  }
  await updateRow(trx, model, key, columnsOf(model, values, [model.key]))
  await afterProductWrite(trx, model, key, values)
  return key
}

/** A product written on its own keeps the catalogue's rules: its image is the gallery's first, its prices agree. */
async function afterProductWrite(trx: Transaction<Database>, model: ModelDef, key: number, values: Values) {
  if (model.name !== 'product') return
  if (Object.hasOwn(values, 'image')) await syncMainImage(trx, key, 'product')
  await checkPrices(trx, key, '')
}

/** 400 naming the field when the stored old price is not above the stored price (the write is undone). */
async function checkPrices(trx: Transaction<Database>, id: number, prefix: string): Promise<void> {
  const problem = await checkProductPrices(trx, id)
  if (problem) throw new HttpError(400, problem, 'validation_failed', { [`${prefix}oldPrice`]: problem })
}

async function requireStructure(db: Transaction<Database>, id: number, field: string): Promise<void> {
  if (!(await recordExists(db, id)))
    throw new HttpError(400, `Запись структуры с id ${id} не найдена`, 'invalid_reference', {
      [field]: 'Запись не найдена',
    })
}

async function writeStructure(trx: Transaction<Database>, mode: WriteMode, values: Values): Promise<number> {
  const structure = findModel('structure')!
  const stamp = now()
  let id: number
  const parentId = values.parentId as number | null | undefined
  if (parentId !== undefined && parentId !== null) await requireStructure(trx, parentId, 'parentId')
  if (typeof values.urlFull === 'string') {
    const taken = await findIdByUrl(trx, values.urlFull, mode === 'update' ? (values.id as number) : undefined)
    if (taken !== null) {
      throw new HttpError(409, `Адрес "${values.urlFull}" уже занят другой записью`, 'conflict', {
        urlFull: 'Адрес уже занят',
      })
    }
    // A deleted record's URL taken again serves the new record, no longer 410.
    await forgetGoneUrl(trx, values.urlFull)
  }
  if (mode === 'create') {
    const row = columnsOf(structure, values, STRUCTURE_PARTS) as unknown as NewStructure
    id = await insertRecord(trx, { ...row, createdAt: stamp, updatedAt: stamp })
  } else {
    id = values.id as number
    const before = await urlOf(trx, id)
    if (before === null) throw new HttpError(404, `Запись structure с id = ${id} не найдена`, 'not_found')
    if (parentId !== undefined && parentId !== null) await refuseCycle(trx, id, parentId)
    // A URL changed by hand leaves a 301 behind, and the records under it follow (decision 028).
    if (typeof values.urlFull === 'string') await changeRecordUrl(trx, { id, urlFull: before }, values.urlFull, stamp)
    const row = columnsOf(structure, values, [...STRUCTURE_PARTS, 'id'])
    await updateRecord(trx, id, { ...row, updatedAt: stamp })
  }
  for (const part of STRUCTURE_PARTS) {
    if (!Object.hasOwn(values, part)) continue
    if (partKind(part) === 'one') await writeOnePart(trx, partModel(part), id, values[part] as Values | null)
    else await replaceListPart(trx, partModel(part), id, values[part] as Values[], mode === 'create')
  }
  const product = values.product as Values | null | undefined
  if (Object.hasOwn(values, 'images')) await syncMainImage(trx, id, 'gallery')
  else if (product && Object.hasOwn(product, 'image')) await syncMainImage(trx, id, 'product')
  if (product) await checkPrices(trx, id, 'product.')
  return id
}

async function refuseCycle(db: Transaction<Database>, id: number, parentId: number): Promise<void> {
  let cursor: number | null = parentId
  for (let steps = 0; cursor !== null && steps < 1000; steps++) {
    if (cursor === id) {
      throw new HttpError(400, 'Запись не может быть вложена сама в себя', 'validation_failed', {
        parentId: 'Недопустимый родитель',
      })
    }
    cursor = (await parentOf(db, cursor)) ?? null
  }
}

/** The whole record as the write answers it: every public field, and a structure's parts. */
function fullSelectNode(model: ModelDef, key: number): SelectNode {
  const every = (target: ModelDef): SelectNode => ({
    model: target,
    fields: [...target.fields.keys()],
    relations: [],
    where: null,
    orderBy: [],
    take: null,
    skip: 0,
  })
  const parts =
    model.name === 'structure'
      ? STRUCTURE_PARTS.map((part) => ({ relation: model.relations.get(part)!, node: every(partModel(part)) }))
      : []
  return {
    ...every(model),
    relations: parts,
    where: { kind: 'cmp', column: model.key, op: 'equals', value: key },
    take: 1,
  }
}

export async function readRecord(db: Db, model: ModelDef, key: number): Promise<Row | null> {
  const rows = await executeQuery(db, fullSelectNode(model, key), { isAdmin: true })
  return rows[0] ?? null
}
