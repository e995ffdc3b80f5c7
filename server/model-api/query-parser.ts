// The query language of the generic read API: a Prisma-compatible subset
// `{ select, where, orderBy, take, skip }` (docs/contract.md §3), parsed into a checked tree that
// query-executor.ts runs. Every mistake in a query is an HttpError 400 with a Russian message
// naming the field or operator; the parser bounds the work one request can ask for.
import { HttpError } from '../http/http-error'
import {
  QUERY_LIMITS,
  type ComparisonOp,
  type Direction,
  type QueryContext,
  type Scalar,
  type SelectNode,
  type WhereNode,
} from './query-tree'
import { findModel, type FieldDef, type ModelDef, type RelationDef } from './registry'

export type { QueryContext, Row, SelectNode } from './query-tree'

export function bad(message: string, path?: string): never {
  throw new HttpError(400, message, 'invalid_query', path ? { [path]: message } : undefined)
}

const QUERY_KEYS = new Set(['select', 'where', 'orderBy', 'take', 'skip'])
const FILTER_OPS = new Set([
  'equals',
  'not',
  'in',
  'notIn',
  'lt',
  'lte',
  'gt',
  'gte',
  'contains',
  'startsWith',
  'endsWith',
])
const TYPE_NAMES: Record<string, string> = { integer: 'числом', string: 'строкой', boolean: 'true или false' }

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
  const proto: unknown = Object.getPrototypeOf(value)
  return proto === Object.prototype || proto === null
}

/** Reads the `query` parameter: absent or empty means `{}`; anything but a JSON object is a 400. */
export function parseQueryParameter(raw: unknown): Record<string, unknown> {
  if (raw === undefined || raw === '') return {}
  if (typeof raw !== 'string') bad('Параметр query должен быть строкой JSON', 'query')
  if (raw.length > QUERY_LIMITS.maxQueryLength) {
    bad(`Параметр query слишком длинный: не более ${QUERY_LIMITS.maxQueryLength} символов`, 'query')
  }
  let value: unknown
  try {
    value = JSON.parse(raw)
  } catch {
    bad('Параметр query содержит некорректный JSON', 'query')
  }
  if (!isPlainObject(value)) bad('Параметр query должен быть JSON-объектом', 'query')
  return value
}

class Budget {
  private used = 0
  spend(path: string, count = 1) {
    this.used += count
    if (this.used > QUERY_LIMITS.maxNodes) bad('Запрос слишком сложный: упростите select и where', path)
  }
}

/**
 * Checks a query object against a model's public fields and relations.
 * Throws HttpError 400 (unknown field, operator or parameter, wrong type, limits) or 403/401 for
 * a relation to a model the caller may not read.
 */
export function parseModelQuery(model: ModelDef, query: Record<string, unknown>, ctx: QueryContext): SelectNode {
  return parseNode(model, query, ctx, 'query', 0, new Budget(), true)
}

function parseNode(
  model: ModelDef,
  query: Record<string, unknown>,
  ctx: QueryContext,
  path: string,
  depth: number,
  budget: Budget,
  top: boolean,
): SelectNode {
  for (const key of Object.keys(query)) {
    budget.spend(path)
    if (!QUERY_KEYS.has(key)) {
      if (key === 'include')
        bad(`Параметр "include" не поддерживается в модели ${model.name}: используйте select`, `${path}.include`)
      bad(`Неизвестный параметр "${key}" в запросе к модели ${model.name}`, `${path}.${key}`)
    }
  }
  const fields: string[] = []
  const relations: Array<{ relation: RelationDef; node: SelectNode }> = []
  const select = query.select
  if (select === undefined) {
    fields.push(...model.defaultSelect)
  } else {
    if (!isPlainObject(select)) bad(`select в модели ${model.name} должен быть объектом`, `${path}.select`)
    for (const [name, value] of Object.entries(select)) {
      const at = `${path}.select.${name}`
      budget.spend(at)
      const field = model.fields.get(name)
      if (field) {
        if (typeof value !== 'boolean')
          bad(`Поле "${name}" в select модели ${model.name}: ожидается true или false`, at)
        if (value) fields.push(name)
        continue
      }
      const relation = model.relations.get(name)
      if (!relation) bad(`Неизвестное поле "${name}" в модели ${model.name}`, at)
      if (value === false) continue
      if (depth + 1 > QUERY_LIMITS.maxRelationDepth) {
        bad(`Слишком глубокая вложенность связей: не более ${QUERY_LIMITS.maxRelationDepth} уровней`, at)
      }
      const target = findModel(relation.model)
      if (!target) bad(`Неизвестное поле "${name}" в модели ${model.name}`, at)
      if (target.adminOnly && !ctx.isAdmin) throw new HttpError(403, 'Доступ запрещён', 'forbidden')
      let sub: Record<string, unknown>
      if (value === true) sub = {}
      else if (isPlainObject(value)) sub = value
      else bad(`Связь "${name}" в select модели ${model.name}: ожидается true или объект`, at)
      if (relation.kind === 'one' && (sub.take !== undefined || sub.skip !== undefined || sub.orderBy !== undefined)) {
        bad(`Связь "${name}" в модели ${model.name} — одна запись: take, skip и orderBy к ней не применяются`, at)
      }
      relations.push({ relation, node: parseNode(target, sub, ctx, at, depth + 1, budget, false) })
    }
    if (fields.length === 0 && relations.length === 0)
      bad(`select в модели ${model.name} не выбирает ни одного поля`, `${path}.select`)
  }
  const where = query.where === undefined ? null : parseWhere(model, query.where, `${path}.where`, 0, budget)
  const orderBy = query.orderBy === undefined ? [] : parseOrderBy(model, query.orderBy, `${path}.orderBy`, budget)
  const take = query.take === undefined ? null : parseCount(query.take, 'take', QUERY_LIMITS.maxTake, model, path)
  const skip = query.skip === undefined ? 0 : parseCount(query.skip, 'skip', QUERY_LIMITS.maxSkip, model, path)
  return { model, fields, relations, where, orderBy, take: take ?? (top ? QUERY_LIMITS.maxTake : null), skip }
}

function parseCount(value: unknown, name: string, max: number, model: ModelDef, path: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > max) {
    bad(`${name} в запросе к модели ${model.name} должен быть целым числом от 0 до ${max}`, `${path}.${name}`)
  }
  return value
}

function parseOrderBy(model: ModelDef, value: unknown, path: string, budget: Budget): Array<[string, Direction]> {
  const list = Array.isArray(value) ? value : [value]
  if (list.length > 10) bad(`orderBy в модели ${model.name}: не более 10 полей`, path)
  const result: Array<[string, Direction]> = []
  for (const item of list) {
    if (!isPlainObject(item)) bad(`orderBy в модели ${model.name} должен быть объектом вида { "поле": "asc" }`, path)
    for (const [name, direction] of Object.entries(item)) {
      budget.spend(path)
      if (!model.fields.has(name)) {
        if (model.relations.has(name))
          bad(`Сортировка по связи "${name}" в модели ${model.name} не поддерживается`, `${path}.${name}`)
        bad(`Неизвестное поле "${name}" в модели ${model.name}`, `${path}.${name}`)
      }
      if (direction !== 'asc' && direction !== 'desc') {
        bad(`Направление сортировки поля "${name}" должно быть "asc" или "desc"`, `${path}.${name}`)
      }
      result.push([name, direction])
    }
  }
  return result
}

function parseWhere(model: ModelDef, value: unknown, path: string, depth: number, budget: Budget): WhereNode {
  if (depth > QUERY_LIMITS.maxWhereDepth)
    bad(`Слишком глубокая вложенность условий where: не более ${QUERY_LIMITS.maxWhereDepth} уровней`, path)
  if (!isPlainObject(value)) bad(`where в модели ${model.name} должен быть объектом`, path)
  const items: WhereNode[] = []
  for (const [key, item] of Object.entries(value)) {
    const at = `${path}.${key}`
    budget.spend(at)
    if (key === 'AND' || key === 'OR' || key === 'NOT') {
      if (key === 'OR' && !Array.isArray(item)) bad(`OR в модели ${model.name} должен быть списком условий`, at)
      const list = Array.isArray(item) ? item : [item]
      if (list.length > QUERY_LIMITS.maxListItems) bad(`${key}: не более ${QUERY_LIMITS.maxListItems} условий`, at)
      const parsed = list.map((sub, i) => parseWhere(model, sub, `${at}.${i}`, depth + 1, budget))
      if (key === 'AND') items.push({ kind: 'and', items: parsed })
      else if (key === 'OR') items.push({ kind: 'or', items: parsed })
      else items.push({ kind: 'not', item: { kind: 'and', items: parsed } })
      continue
    }
    const field = model.fields.get(key)
    if (!field) {
      if (model.relations.has(key)) bad(`Фильтр по связи "${key}" в модели ${model.name} не поддерживается`, at)
      bad(`Неизвестное поле "${key}" в модели ${model.name}`, at)
    }
    items.push(parseFieldFilter(model, key, field, item, at, depth, budget))
  }
  return { kind: 'and', items }
}

function parseFieldFilter(
  model: ModelDef,
  name: string,
  field: FieldDef,
  value: unknown,
  path: string,
  depth: number,
  budget: Budget,
): WhereNode {
  if (depth > QUERY_LIMITS.maxWhereDepth)
    bad(`Слишком глубокая вложенность условий where: не более ${QUERY_LIMITS.maxWhereDepth} уровней`, path)
  if (!isPlainObject(value)) {
    // Shorthand: { typeId: 'index' } means equals.
    return { kind: 'cmp', column: name, op: 'equals', value: scalar(model, name, field, value, path, true) }
  }
  const items: WhereNode[] = []
  for (const [op, operand] of Object.entries(value)) {
    const at = `${path}.${op}`
    budget.spend(at)
    if (!FILTER_OPS.has(op)) bad(`Неизвестный оператор "${op}" для поля "${name}" в модели ${model.name}`, at)
    switch (op) {
      case 'equals':
        items.push({ kind: 'cmp', column: name, op: 'equals', value: scalar(model, name, field, operand, at, true) })
        break
      case 'not':
        items.push(
          isPlainObject(operand)
            ? { kind: 'not', item: parseFieldFilter(model, name, field, operand, at, depth + 1, budget) }
            : { kind: 'cmp', column: name, op: 'notEquals', value: scalar(model, name, field, operand, at, true) },
        )
        break
      case 'in':
      case 'notIn': {
        if (!Array.isArray(operand)) bad(`Оператор "${op}" для поля "${name}" ожидает список значений`, at)
        if (operand.length > QUERY_LIMITS.maxListItems)
          bad(`Оператор "${op}" для поля "${name}": не более ${QUERY_LIMITS.maxListItems} значений`, at)
        budget.spend(at, Math.ceil(operand.length / 10))
        const values = operand.map((v, i) => scalar(model, name, field, v, `${at}.${i}`, false))
        items.push({ kind: 'cmp', column: name, op, value: values })
        break
      }
      case 'lt':
      case 'lte':
      case 'gt':
      case 'gte':
        if (field.type === 'boolean') bad(`Оператор "${op}" не применяется к полю "${name}" (да/нет)`, at)
        items.push({ kind: 'cmp', column: name, op, value: scalar(model, name, field, operand, at, false) })
        break
      default: // contains, startsWith, endsWith
        if (field.type !== 'string')
          bad(`Оператор "${op}" применяется только к строковым полям, а "${name}" — не строка`, at)
        items.push({
          kind: 'cmp',
          column: name,
          op: op as ComparisonOp,
          value: scalar(model, name, field, operand, at, false),
        })
    }
  }
  return { kind: 'and', items }
}

function scalar(
  model: ModelDef,
  name: string,
  field: FieldDef,
  value: unknown,
  path: string,
  allowNull: boolean,
): Scalar {
  if (value === null) {
    if (allowNull) return null
    bad(`Значение для поля "${name}" в модели ${model.name} не может быть null`, path)
  }
  switch (field.type) {
    case 'integer':
      if (typeof value === 'number' && Number.isFinite(value) && Math.abs(value) <= Number.MAX_SAFE_INTEGER)
        return value
      break
    case 'boolean':
      if (typeof value === 'boolean') return value ? 1 : 0
      break
    case 'string':
      if (typeof value === 'string') {
        if (value.length > QUERY_LIMITS.maxStringLength)
          bad(`Значение для поля "${name}" слишком длинное: не более ${QUERY_LIMITS.maxStringLength} символов`, path)
        // PostgreSQL refuses NUL bytes in text: answer 400 rather than a driver error.
        if (value.includes('\u0000')) bad(`Значение для поля "${name}" содержит недопустимый символ`, path)
        return value
      }
      break
  }
  bad(`Значение для поля "${name}" в модели ${model.name} должно быть ${TYPE_NAMES[field.type]}`, path)
}
