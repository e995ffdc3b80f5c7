// The `where` part of a model query: equality, comparisons, text matching and AND/OR/NOT over a
// model's public fields, checked into WhereNode trees. Values are typed by their field: a wrong
// type, an over-long string or a NUL is a 400, never a driver error.
import { kopecksOfRubles } from '../../src/format/money'
import { bad, isPlainObject, type Budget } from './query-input'
import { QUERY_LIMITS, type ComparisonOp, type Scalar, type WhereNode } from './query-tree'
import type { FieldDef, ModelDef } from './registry'

/** The operators a field's filter may use (AND, OR and NOT combine filters). */
export const FILTER_OPERATORS = [
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
] as const
const FILTER_OPS = new Set<string>(FILTER_OPERATORS)
const TYPE_NAMES: Record<string, string> = {
  integer: 'числом',
  string: 'строкой',
  boolean: 'true или false',
  money: 'суммой в рублях (не более 2 знаков после запятой)',
}

export function parseWhere(model: ModelDef, value: unknown, path: string, depth: number, budget: Budget): WhereNode {
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
    case 'money': {
      // Rubles in the query, kopecks in the database.
      const kopecks = typeof value === 'number' ? kopecksOfRubles(Math.abs(value)) : null
      if (kopecks !== null) return Math.sign(value as number) * kopecks
      break
    }
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
