// Content writes of the generic API: the rules of the tree around the SQL (write-rows.ts) in one
// write transaction. A structure record may carry its parts (index, product, sliderItems[],
// advantages[]): all of it is written or none. Its parent must exist and must not be the record
// itself or one of its descendants; its URL must be free. The schema of a write is write-schema.ts.
import type { Transaction } from 'kysely'
import type { Database, NewStructure } from '../data/schema'
import {
  findIdByUrl,
  forgetGoneUrl,
  insertRecord,
  parentOf,
  recordExists,
  updateRecord,
} from '../content/structure-store'
import { reindexProducts } from '../catalogue/search-index'
import { bumpContentVersion, now, writeTransaction, type Db } from '../data/db'
import { HttpError } from '../http/http-error'
import { executeQuery } from './query-executor'
import type { Row, SelectNode } from './query-tree'
import { findModel, STRUCTURE_PARTS, type ModelDef } from './registry'
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
      return key
    })
  } catch (error) {
    if (error instanceof HttpError) throw error
    if (isUniqueViolation(error)) throw new HttpError(409, 'Такая запись уже существует', 'conflict')
    if (isForeignKeyViolation(error)) throw new HttpError(400, 'Связанная запись не найдена', 'invalid_reference')
    throw error
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
    return insertRow(trx, model, columnsOf(model, values))
  }
  const key = values[model.key] as number
  if (!(await rowExists(trx, model, key))) {
    throw new HttpError(404, `Запись ${model.name} с ${model.key} = ${key} не найдена`, 'not_found')
  }
  await updateRow(trx, model, key, columnsOf(model, values, [model.key]))
  return key
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
    if (!(await recordExists(trx, id)))
      throw new HttpError(404, `Запись structure с id = ${id} не найдена`, 'not_found')
    if (parentId !== undefined && parentId !== null) await refuseCycle(trx, id, parentId)
    const row = columnsOf(structure, values, [...STRUCTURE_PARTS, 'id'])
    await updateRecord(trx, id, { ...row, updatedAt: stamp })
  }
  for (const part of STRUCTURE_PARTS) {
    if (!Object.hasOwn(values, part)) continue
    const partModel = findModel(part)!
    if (partKind(part) === 'one') await writeOnePart(trx, partModel, id, values[part] as Values | null)
    else await replaceListPart(trx, partModel, id, values[part] as Values[])
  }
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
      ? STRUCTURE_PARTS.map((part) => ({ relation: model.relations.get(part)!, node: every(findModel(part)!) }))
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
