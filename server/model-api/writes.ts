// Content writes of the generic API: the rules of the tree around the SQL (write-rows.ts) in one
// write transaction. A structure record may carry its parts (index, product, sliderItems[],
// advantages[], images[], properties[], variants[]: write-variants.ts): all of it is written or
// none. A product's image is its gallery's first whichever way it is written, and its old price
// stays above its price. Its parent must exist and must not be the record
// itself or one of its descendants; its URL must be free, and a URL changed leaves a redirect (its
// subtree following, as «Перенести» does: content/moved-urls.ts). The schema of a write is write-schema.ts.
import type { Transaction } from 'kysely'
import type { Database, NewStructure } from '../data/schema'
import type { ContentWrite } from '../content/content-write'
import type { WriteDoor } from '../catalogue/write-door'
import { claimImport, writeInChunks } from '../catalogue/import-claim'
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
import type { Db } from '../data/db'
import { HttpError } from '../http/http-error'
import { executeQuery } from './query-executor'
import type { Row, SelectNode } from './query-tree'
import { findModel, partModel, STRUCTURE_PARTS, type ModelDef } from './registry'
import {
  loadProductRows,
  writeProductParts,
  type GalleryInput,
  type PropertyInput,
} from '../catalogue/products/product-rows'
import { writeVariantsPart } from './write-variants'
import { refuseFollowedChange } from '../catalogue/product-table/variant-table'
import { partKind, type WriteMode } from './write-schema'
import { columnsOf, insertRow, replaceListPart, rowExists, updateRow, writeOnePart } from './write-rows'

type Values = Record<string, unknown>

/** A structure write's parts that are a product's: written by the product-row repository. */
const OWN_PARTS = ['product', 'images', 'properties'] as const
const PRODUCT_PARTS: ReadonlySet<string> = new Set([...OWN_PARTS, 'variants'])

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
export async function writeRecord(door: WriteDoor, model: ModelDef, mode: WriteMode, values: Values): Promise<number> {
  try {
    // Through the door: search, IndexNow, the version and the caches follow (catalogue/write-door.ts).
    return await door.write((unit) =>
      model.name === 'structure' ? writeStructure(unit, mode, values) : writeFlat(unit, model, mode, values),
    )
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
 * The content import's batch (POST /api/batch/structure): each record created or, when its URL
 * exists, updated. Written like every import (catalogue/import-claim.ts): under the catalogue's
 * claim (409 while the price list or another import writes), in short transactions with the event
 * loop let go between them. A record failing stops the batch there: the records before it stay
 * written, and since a record is matched by its URL, sending the batch again finishes it.
 */
export async function writeStructureBatch(door: WriteDoor, records: readonly BatchRecord[]): Promise<number[]> {
  const claim = await claimImport(door.db, 'content-import')
  try {
    const ids: number[] = []
    return await writeInChunks(door, claim, [...records.entries()], async (unit, part) => {
      const written: number[] = []
      for (const [i, record] of part) {
        const values = { ...record.values }
        if (record.parent !== undefined) values.parentId = ids[record.parent]
        const existing = await findIdByUrl(unit.trx, values.urlFull as string)
        try {
          const id =
            existing === null
              ? await writeStructure(unit, 'create', values)
              : await writeStructure(unit, 'update', { ...values, id: existing })
          written.push(id)
          ids.push(id)
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
      return written
    })
  } catch (error) {
    throw translateStorageError(error)
  } finally {
    await claim.release()
  }
}

async function writeFlat(unit: ContentWrite, model: ModelDef, mode: WriteMode, values: Values) {
  const trx = unit.trx
  // A model of no record (the order types) may show on any page.
  if (!model.fields.has('structureId')) unit.affectsEveryPage()
  if (Object.hasOwn(values, 'structureId')) await requireStructure(trx, values.structureId as number, 'structureId')
  if (mode === 'create') {
    if (model.key !== 'id' && (await rowExists(trx, model, values[model.key]))) {
      throw new HttpError(
        409,
        `У записи ${String(values[model.key])} уже есть ${model.name}: измените её методом PATCH`,
        'conflict',
      )
    }
    if (model.table === 'product') {
      const id = values.structureId as number
      await writeProduct(unit, id, { product: columnsOf(model, values, ['structureId']) }, '')
      return id
    }
    return insertRow(unit, model, columnsOf(model, values))
  }
  const key = values[model.key] as number
  if (!(await rowExists(trx, model, key))) {
    throw new HttpError(404, `Запись ${model.name} с ${model.key} = ${key} не найдена`, 'not_found')
  }
  if (model.table === 'product') await writeProduct(unit, key, { product: columnsOf(model, values, [model.key]) }, '')
  else await updateRow(unit, model, key, columnsOf(model, values, [model.key]))
  return key
}

/**
 * A product's parts through the product-row repository, which keeps the catalogue's rules: its
 * image is the gallery's first, its prices agree (400 naming the field, the write undone), and the
 * price and availability of a product with variants are theirs (decision 043: a change refused).
 */
async function writeProduct(
  unit: ContentWrite,
  id: number,
  parts: Parameters<typeof writeProductParts>[2],
  prefix: string,
): Promise<void> {
  await refuseFollowedChange(unit, id, parts.product, prefix)
  const problem = await writeProductParts(unit, id, parts)
  if (problem) throw new HttpError(400, problem, 'validation_failed', { [`${prefix}oldPrice`]: problem })
}

async function requireStructure(db: Transaction<Database>, id: number, field: string): Promise<void> {
  if (!(await recordExists(db, id)))
    throw new HttpError(400, `Запись структуры с id ${id} не найдена`, 'invalid_reference', {
      [field]: 'Запись не найдена',
    })
}

async function writeStructure(unit: ContentWrite, mode: WriteMode, values: Values): Promise<number> {
  const structure = findModel('structure')!
  const trx = unit.trx
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
    await forgetGoneUrl(unit, values.urlFull)
  }
  if (mode === 'create') {
    const row = columnsOf(structure, values, STRUCTURE_PARTS) as unknown as NewStructure
    id = await insertRecord(unit, row)
  } else {
    id = values.id as number
    const before = await urlOf(trx, id)
    if (before === null) throw new HttpError(404, `Запись structure с id = ${id} не найдена`, 'not_found')
    await unit.touch([id])
    if (parentId !== undefined && parentId !== null) await refuseCycle(trx, id, parentId)
    // A URL changed by hand leaves a 301 behind, and the records under it follow (decision 028).
    if (typeof values.urlFull === 'string') await changeRecordUrl(unit, { id, urlFull: before }, values.urlFull)
    const row = columnsOf(structure, values, [...STRUCTURE_PARTS, 'id'])
    await updateRecord(unit, id, row)
  }
  for (const part of STRUCTURE_PARTS) {
    if (!Object.hasOwn(values, part) || PRODUCT_PARTS.has(part)) continue
    if (partKind(part) === 'one') await writeOnePart(unit, partModel(part), id, values[part] as Values | null)
    else await replaceListPart(unit, partModel(part), id, values[part] as Values[], mode === 'create')
  }
  const variants = values.variants as Values[] | undefined
  // The variants set the product's price: written first when it has its row, so its part is checked
  // against them (decision 043); a new product's once its row is made.
  const variantsFirst = variants !== undefined && (await loadProductRows(trx, [id])).has(id)
  if (variantsFirst) await writeVariantsPart(unit, id, variants)
  if (OWN_PARTS.some((part) => Object.hasOwn(values, part))) {
    const product = values.product as Values | null | undefined
    const list = (part: 'images' | 'properties') =>
      Object.hasOwn(values, part)
        ? (values[part] as Values[]).map((item) => columnsOf(partModel(part), item, ['structureId']))
        : undefined
    await writeProduct(
      unit,
      id,
      {
        product: product ? columnsOf(partModel('product'), product, ['structureId']) : product,
        images: list('images') as GalleryInput[] | undefined,
        properties: list('properties') as PropertyInput[] | undefined,
      },
      'product.',
    )
  }
  if (variants !== undefined && !variantsFirst) await writeVariantsPart(unit, id, variants)
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
