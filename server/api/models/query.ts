// The query language of the generic read API: a Prisma-compatible subset
// `{ select, where, orderBy, take, skip }` (docs/contract.md §3), parsed into a checked tree and run with
// dialect-neutral Kysely queries. Relations are loaded by one batched follow-up query per relation
// and level (`where parentId in (…)`), never with JSON SQL functions, so SQLite and PostgreSQL
// answer alike. Every mistake in a query is an HttpError 400 with a Russian message naming the
// field or operator; SQL text never reaches the client.
import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from 'kysely'
import { HttpError } from '../../http-error'
import { findModel, type FieldDef, type ModelDef, type RelationDef } from './registry'

export const QUERY_LIMITS = Object.freeze({
  /** Largest `take`, and the default when a top-level query names none. */
  maxTake: 500,
  maxSkip: 100_000,
  /** Levels of relations under the queried model. */
  maxRelationDepth: 4,
  /** Nesting of AND/OR/NOT and `not` filters. */
  maxWhereDepth: 8,
  /** Keys and values looked at in one query: bounds the work a single request can ask for. */
  maxNodes: 400,
  maxListItems: 500,
  maxStringLength: 1000,
  /** Characters of the `query` parameter. */
  maxQueryLength: 16_384,
  /** Rows one relation level may load for all parents together. */
  maxRelationRows: 10_000,
})

function bad(message: string, path?: string): never {
  throw new HttpError(400, message, 'invalid_query', path ? { [path]: message } : undefined)
}

export interface QueryContext {
  /** The request carries the admin token. */
  readonly isAdmin: boolean
}

type Direction = 'asc' | 'desc'
type Scalar = string | number | null

export type WhereNode =
  | { readonly kind: 'and' | 'or'; readonly items: readonly WhereNode[] }
  | { readonly kind: 'not'; readonly item: WhereNode }
  | {
      readonly kind: 'cmp'
      readonly column: string
      readonly op: ComparisonOp
      readonly value: Scalar | readonly Scalar[]
    }

type ComparisonOp =
  'equals' | 'notEquals' | 'in' | 'notIn' | 'lt' | 'lte' | 'gt' | 'gte' | 'contains' | 'startsWith' | 'endsWith'

export interface SelectNode {
  readonly model: ModelDef
  readonly fields: readonly string[]
  readonly relations: ReadonlyArray<{ readonly relation: RelationDef; readonly node: SelectNode }>
  readonly where: WhereNode | null
  readonly orderBy: ReadonlyArray<readonly [string, Direction]>
  readonly take: number | null
  readonly skip: number
}

export type Row = Record<string, unknown>

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

// ---------------------------------------------------------------------------------------------
// Execution

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`)
}

function toExpression(eb: ExpressionBuilder<any, any>, node: WhereNode): Expression<SqlBool> {
  switch (node.kind) {
    case 'and':
      return node.items.length === 0 ? sql<SqlBool>`1 = 1` : eb.and(node.items.map((item) => toExpression(eb, item)))
    case 'or':
      return node.items.length === 0 ? sql<SqlBool>`1 = 0` : eb.or(node.items.map((item) => toExpression(eb, item)))
    case 'not':
      return eb.not(toExpression(eb, node.item))
    case 'cmp': {
      const ref = eb.ref(node.column)
      const value = node.value
      switch (node.op) {
        case 'equals':
          return value === null ? eb(ref, 'is', null) : eb(ref, '=', value)
        case 'notEquals':
          return value === null ? eb(ref, 'is not', null) : eb(ref, '<>', value)
        case 'in':
          return (value as Scalar[]).length === 0 ? sql<SqlBool>`1 = 0` : eb(ref, 'in', value as Scalar[])
        case 'notIn':
          return (value as Scalar[]).length === 0 ? sql<SqlBool>`1 = 1` : eb(ref, 'not in', value as Scalar[])
        case 'lt':
          return eb(ref, '<', value)
        case 'lte':
          return eb(ref, '<=', value)
        case 'gt':
          return eb(ref, '>', value)
        case 'gte':
          return eb(ref, '>=', value)
        // LIKE with the wildcards of the value escaped; `ESCAPE '\'` reads the same in both dialects.
        case 'contains':
          return sql<SqlBool>`${ref} like ${`%${escapeLike(String(value))}%`} escape '\\'`
        case 'startsWith':
          return sql<SqlBool>`${ref} like ${`${escapeLike(String(value))}%`} escape '\\'`
        case 'endsWith':
          return sql<SqlBool>`${ref} like ${`%${escapeLike(String(value))}`} escape '\\'`
      }
    }
  }
}

interface LoadFilter {
  readonly column: string
  readonly values: readonly Scalar[]
  readonly defaultOrder: ReadonlyArray<readonly [string, Direction]>
}

/** A row as loaded: every column read, and the raw rows of each relation under its name. */
interface RawRow {
  readonly columns: Row
  readonly related: Map<string, RawRow[] | RawRow | null>
}

/** Runs a parsed query: the rows of the model with their relations, shaped as the select asks. */
export async function executeQuery(db: Kysely<any>, node: SelectNode, ctx: QueryContext): Promise<Row[]> {
  const rows = await load(db, node, ctx, null)
  return rows.map((row) => shape(node, row))
}

async function load(
  db: Kysely<any>,
  node: SelectNode,
  ctx: QueryContext,
  filter: LoadFilter | null,
): Promise<RawRow[]> {
  const { model } = node
  const columns = new Set(node.fields)
  for (const { relation } of node.relations) columns.add(relation.localKey)
  if (filter) columns.add(filter.column)
  columns.add(model.key)

  const build = (values: readonly Scalar[] | null) => {
    let query = db.selectFrom(model.table).select([...columns])
    if (model.scope) query = query.where((eb) => model.scope!(eb))
    if (model.publicScope && !ctx.isAdmin) query = query.where((eb) => model.publicScope!(eb, db))
    if (node.where) query = query.where((eb) => toExpression(eb, node.where!))
    if (filter && values) query = query.where(filter.column, 'in', values as Scalar[])
    const order = node.orderBy.length > 0 ? node.orderBy : (filter?.defaultOrder ?? [])
    for (const [column, direction] of order) query = query.orderBy(column, direction)
    if (!order.some(([column]) => column === model.key)) query = query.orderBy(model.key, 'asc')
    return query
  }

  let found: Row[]
  if (!filter) {
    found = await build(null)
      .limit(node.take ?? QUERY_LIMITS.maxTake)
      .offset(node.skip)
      .execute()
  } else {
    found = []
    const keys = [...new Set(filter.values.filter((v) => v !== null && v !== undefined))]
    for (let i = 0; i < keys.length; i += 500) {
      const chunk = keys.slice(i, i + 500)
      const limit = QUERY_LIMITS.maxRelationRows + 1 - found.length
      found.push(...(await build(chunk).limit(limit).execute()))
      if (found.length > QUERY_LIMITS.maxRelationRows) {
        bad(`Слишком много связанных записей модели ${model.name}: уточните запрос (take, where)`)
      }
    }
  }
  const rows: RawRow[] = found.map((columns) => ({ columns, related: new Map() }))

  for (const { relation, node: child } of node.relations) {
    const related = await load(db, child, ctx, {
      column: relation.foreignKey,
      values: rows.map((r) => r.columns[relation.localKey] as Scalar),
      defaultOrder: relation.defaultOrder ?? [],
    })
    const groups = new Map<unknown, RawRow[]>()
    for (const row of related) {
      const key = row.columns[relation.foreignKey]
      const list = groups.get(key)
      if (list) list.push(row)
      else groups.set(key, [row])
    }
    for (const row of rows) {
      const key = row.columns[relation.localKey]
      const list = key === null || key === undefined ? [] : (groups.get(key) ?? [])
      if (relation.kind === 'one') {
        row.related.set(relation.name, list[0] ?? null)
      } else {
        const end = child.take === null ? undefined : child.skip + child.take
        row.related.set(relation.name, list.slice(child.skip, end))
      }
    }
  }
  return rows
}

/** The output object: selected fields in order, then relations; 0/1 flags become booleans. */
function shape(node: SelectNode, row: RawRow): Row {
  const out: Row = {}
  for (const name of node.fields) {
    const value = row.columns[name]
    out[name] =
      node.model.fields.get(name)?.type === 'boolean' && value !== null && value !== undefined ? Boolean(value) : value
  }
  for (const { relation, node: child } of node.relations) {
    const value = row.related.get(relation.name)
    out[relation.name] = Array.isArray(value)
      ? value.map((item) => shape(child, item))
      : value
        ? shape(child, value)
        : null
  }
  return out
}
