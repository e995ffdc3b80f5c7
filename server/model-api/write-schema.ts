// What a content write may carry, as JSON Schema built from the registry: each model's writable
// fields, and for a structure record its parts (index, product, sliderItems[], advantages[], images[],
// properties[], variants[] each with its options[]).
// Checked with the project's ajv and Russian messages, every failing field at once.
import type { ValidateFunction } from 'ajv'
import { createAjv } from '../../src/validation/create-ajv'
import { fieldErrorsFromAjv, fieldOfAjvError } from '../../src/validation/field-errors'
import { HttpError } from '../http/http-error'
import {
  findModel,
  partModel,
  SITE_PATH_MESSAGE,
  SITE_PATH_PATTERN,
  STRUCTURE_PARTS,
  type ModelDef,
  type StructurePart,
} from './registry'

export type WriteMode = 'create' | 'update'

/** Items of one list part in one write, unless its relation says fewer. */
const MAX_LIST_ITEMS = 100

/** Made on the first write: an ajv instance costs a tenth of a second of start-up (decision 031). */
let ajv: ReturnType<typeof createAjv> | null = null
const validators = new Map<string, ValidateFunction>()

/** A one-to-one part (index, product) or a list (sliderItems, advantages, images, properties, variants): the structure model's relation says. */
export function partKind(part: StructurePart): 'one' | 'many' {
  return findModel('structure')!.relations.get(part)!.kind
}

function objectSchema(model: ModelDef, mode: WriteMode | 'part', omit: readonly string[] = []) {
  const properties: Record<string, unknown> = {}
  const required: string[] = []
  for (const [name, field] of model.fields) {
    if (!field.write || omit.includes(name)) continue
    properties[name] = field.write
    if (mode !== 'update' && field.required) required.push(name)
  }
  // A list written inside each item of a part (a variant's option values), replaced with it.
  for (const relation of model.relations.values()) {
    if (!relation.written) continue
    const items = objectSchema(findModel(relation.model)!, 'part')
    properties[relation.name] = { type: 'array', maxItems: relation.maxItems ?? MAX_LIST_ITEMS, items }
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
      const item = objectSchema(partModel(part), 'part', ['structureId'])
      const maxItems = findModel('structure')!.relations.get(part)!.maxItems ?? MAX_LIST_ITEMS
      schema.properties[part] =
        partKind(part) === 'one' ? { anyOf: [{ type: 'null' }, item] } : { type: 'array', maxItems, items: item }
    }
  }
  return schema
}

function validator(model: ModelDef, mode: WriteMode): ValidateFunction {
  const key = `${model.name}:${mode}`
  let validate = validators.get(key)
  if (!validate) {
    ajv ??= createAjv()
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
  // An address off this site gets its own words, not the generic «Значение недопустимо».
  for (const error of errorsList) {
    if (error.keyword === 'pattern' && error.schema === SITE_PATH_PATTERN && error.data !== '')
      errors[fieldOfAjvError(error)] = SITE_PATH_MESSAGE
  }
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
      for (const [name, field] of partModel(part).fields) {
        if (!field.image) continue
        patterns.push(
          new RegExp(partKind(part) === 'one' ? `^${part}\\.${name}$` : `^${part}\\.(0|[1-9]\\d{0,2})\\.${name}$`),
        )
      }
    }
  }
  return patterns
}
