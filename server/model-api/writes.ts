// Content writes of the generic API: the write schema of each model (built from the registry),
// its Russian validation, and the write itself in one transaction. A structure record may carry
// its parts (index, product, sliderItems[], advantages[]): all of it is written or none.
import type { ValidateFunction } from 'ajv'
import type { Kysely, Transaction } from 'kysely'
import type { Database, NewStructure } from '../data/schema'
import {
  findIdByUrl,
  forgetGoneUrl,
  insertRecord,
  parentOf,
  recordExists,
  updateRecord,
} from '../content/structure-store'
import { bumpContentVersion, now, writeTransaction, type Db } from '../data/db'
import { createAjv } from '../../src/validation/create-ajv'
import { fieldErrorsFromAjv, fieldOfAjvError } from '../../src/validation/field-errors'
import { HttpError } from '../http/http-error'
import { executeQuery } from './query-executor'
import type { Row, SelectNode } from './query-parser'
import { findModel, STRUCTURE_PARTS, type ModelDef, type StructurePart } from './registry'

export type WriteMode = 'create' | 'update'

const ajv = createAjv()
const validators = new Map<string, ValidateFunction>()

/** Part name → key of the one-to-one or list part in the parts' own models. */
const PART_KINDS: Record<StructurePart, 'one' | 'many'> = {
  index: 'one',
  product: 'one',
  sliderItems: 'many',
  advantages: 'many',
}
const MAX_LIST_ITEMS = 100

function objectSchema(model: ModelDef, mode: WriteMode | 'part', omit: readonly string[] = []) {
  const properties: Record<string, unknown> = {}
  const required: string[] = []
  for (const [name, field] of model.fields) {
    if (!field.write || omit.includes(name)) continue
    properties[name] = field.write
    if (mode !== 'update' && field.required) required.push(name)
  }
  if (mode === 'update') {
    properties[model.key] = { type: 'integer', minimum: 1, maximum: 2147483647 }
    required.push(model.key)
  }
  return { type: 'object', additionalProperties: false, properties, required }
}

/** The JSON Schema a write of this model is checked against (additionalProperties: false). */
function writeSchema(model: ModelDef, mode: WriteMode): Record<string, unknown> {
  const schema = objectSchema(model, mode)
  if (model.name === 'structure') {
    for (const part of STRUCTURE_PARTS) {
      const partModel = findModel(part)!
      const item = objectSchema(partModel, 'part', ['structureId'])
      schema.properties[part] =
        PART_KINDS[part] === 'one'
          ? { anyOf: [{ type: 'null' }, item] }
          : { type: 'array', maxItems: MAX_LIST_ITEMS, items: item }
    }
  }
  return schema
}

function validator(model: ModelDef, mode: WriteMode): ValidateFunction {
  const key = `${model.name}:${mode}`
  let validate = validators.get(key)
  if (!validate) {
    validate = ajv.compile(writeSchema(model, mode))
    validators.set(key, validate)
  }
  return validate
}

/** Throws HttpError 400 with every failing field at once; an unknown field is named in the message. */
export function validateWrite(model: ModelDef, mode: WriteMode, values: Record<string, unknown>): void {
  const validate = validator(model, mode)
  if (validate(values)) return
  const errorsList = (validate.errors ?? []).filter((e) => e.keyword !== 'anyOf')
  const errors = fieldErrorsFromAjv(errorsList)
  const unknown = errorsList.find((e) => e.keyword === 'additionalProperties')
  const message = unknown
    ? `Неизвестное поле "${fieldOfAjvError(unknown)}" в модели ${model.name}`
    : `Проверьте поля: ${Object.entries(errors)
        .map(([field, text]) => `${field} — ${text}`)
        .join('; ')}`
  throw new HttpError(400, message, 'validation_failed', errors)
}

/** Dot paths where a write of this model may send an image file. */
export function imagePathPatterns(model: ModelDef): RegExp[] {
  const patterns: RegExp[] = []
  for (const [name, field] of model.fields) if (field.image) patterns.push(new RegExp(`^${name}$`))
  if (model.name === 'structure') {
    for (const part of STRUCTURE_PARTS) {
      for (const [name, field] of findModel(part)!.fields) {
        if (!field.image) continue
        patterns.push(
          new RegExp(PART_KINDS[part] === 'one' ? `^${part}\\.${name}$` : `^${part}\\.(0|[1-9]\\d{0,2})\\.${name}$`),
        )
      }
    }
  }
  return patterns
}

type Values = Record<string, unknown>

function columnsOf(model: ModelDef, values: Values, omit: readonly string[] = []): Record<string, unknown> {
  const row: Record<string, unknown> = {}
  for (const [name, field] of model.fields) {
    if (!field.write || omit.includes(name) || !Object.hasOwn(values, name)) continue
    const value = values[name]
    row[name] = field.type === 'boolean' && typeof value === 'boolean' ? (value ? 1 : 0) : value
  }
  return row
}

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

async function writeFlat(
  trx: Transaction<Database>,
  model: ModelDef,
  mode: WriteMode,
  values: Values,
): Promise<number> {
  const db = trx as unknown as Kysely<any>
  if (Object.hasOwn(values, 'structureId')) await requireStructure(trx, values.structureId as number, 'structureId')
  if (mode === 'create') {
    const row = columnsOf(model, values)
    if (model.key === 'id') {
      const created = await db.insertInto(model.table).values(row).returning('id').executeTakeFirstOrThrow()
      return Number(created.id)
    }
    const existing = await db
      .selectFrom(model.table)
      .select(model.key)
      .where(model.key, '=', values[model.key])
      .executeTakeFirst()
    if (existing)
      throw new HttpError(
        409,
        `У записи ${String(values[model.key])} уже есть ${model.name}: измените её методом PATCH`,
        'conflict',
      )
    await db.insertInto(model.table).values(row).execute()
    return values[model.key] as number
  }
  const key = values[model.key] as number
  const existing = await db.selectFrom(model.table).select(model.key).where(model.key, '=', key).executeTakeFirst()
  if (!existing) throw new HttpError(404, `Запись ${model.name} с ${model.key} = ${key} не найдена`, 'not_found')
  const row = columnsOf(model, values, [model.key])
  if (Object.keys(row).length > 0) await db.updateTable(model.table).set(row).where(model.key, '=', key).execute()
  return key
}

async function requireStructure(db: Transaction<Database>, id: number, field: string): Promise<void> {
  if (!(await recordExists(db, id)))
    throw new HttpError(400, `Запись структуры с id ${id} не найдена`, 'invalid_reference', {
      [field]: 'Запись не найдена',
    })
}

async function writeStructure(trx: Transaction<Database>, mode: WriteMode, values: Values): Promise<number> {
  const db = trx as unknown as Kysely<any>
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
    const value = values[part]
    if (PART_KINDS[part] === 'one') {
      const existing = await db
        .selectFrom(partModel.table)
        .select('structureId')
        .where('structureId', '=', id)
        .executeTakeFirst()
      if (value === null) {
        if (existing) await db.deleteFrom(partModel.table).where('structureId', '=', id).execute()
        continue
      }
      const row = columnsOf(partModel, value as Values, ['structureId'])
      if (existing) {
        if (Object.keys(row).length > 0)
          await db.updateTable(partModel.table).set(row).where('structureId', '=', id).execute()
      } else {
        await db
          .insertInto(partModel.table)
          .values({ ...row, structureId: id })
          .execute()
      }
    } else {
      // A list is replaced as a whole: the order of the array is the order on the page.
      await db.deleteFrom(partModel.table).where('structureId', '=', id).execute()
      for (const [index, item] of (value as Values[]).entries()) {
        const row = columnsOf(partModel, item, ['structureId'])
        await db
          .insertInto(partModel.table)
          .values({ sort: index, ...row, structureId: id })
          .execute()
      }
    }
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
  const partNodes =
    model.name === 'structure'
      ? STRUCTURE_PARTS.map((part) => {
          const relation = model.relations.get(part)!
          const partModel = findModel(part)!
          return {
            relation,
            node: {
              model: partModel,
              fields: [...partModel.fields.keys()],
              relations: [],
              where: null,
              orderBy: [],
              take: null,
              skip: 0,
            },
          }
        })
      : []
  return {
    model,
    fields: [...model.fields.keys()],
    relations: partNodes,
    where: { kind: 'cmp', column: model.key, op: 'equals', value: key },
    orderBy: [],
    take: 1,
    skip: 0,
  }
}

export async function readRecord(db: Db, model: ModelDef, key: number): Promise<Row | null> {
  const rows = await executeQuery(db, fullSelectNode(model, key), { isAdmin: true })
  return rows[0] ?? null
}
