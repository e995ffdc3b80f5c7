// The query language of the generic read API: a Prisma-compatible subset
// `{ select, where, orderBy, take, skip }` (docs/contract.md §3), parsed into a checked tree that
// query-executor.ts runs. Every mistake in a query is an HttpError 400 with a Russian message
// naming the field or operator; the parser bounds the work one request can ask for.
import { HttpError } from '../http/http-error'
import { bad, Budget, isPlainObject } from './query-input'
import { QUERY_LIMITS, type Direction, type QueryContext, type SelectNode } from './query-tree'
import { parseWhere } from './query-where'
import { findModel, type ModelDef, type RelationDef } from './registry'

export type { QueryContext, Row, SelectNode } from './query-tree'

const QUERY_KEYS = new Set(['select', 'where', 'orderBy', 'take', 'skip'])

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

/**
 * Checks a query object against a model's public fields and relations.
 * Throws HttpError 400 (unknown field, operator or parameter, wrong type, limits) or 403/401 for
 * a relation to a model the caller may not read.
 */
export function parseModelQuery(model: ModelDef, query: Record<string, unknown>, ctx: QueryContext): SelectNode {
  return parseNode(model, query, ctx, 'query', 0, new Budget(), new Map())
}

/**
 * The links of the data a path of relations has walked, each as `model.column→model.column`,
 * with where the path took it. A relation whose reverse link is already on the path leads back to
 * records the path came from (`children` then `parent`, `product` then `structure`): the answer
 * would repeat them, growing with the square of a section for nothing new (docs/decisions/024).
 */
type WalkedLinks = ReadonlyMap<string, string>

function linkOf(from: ModelDef, relation: RelationDef): string {
  return `${from.name}.${relation.localKey}→${relation.model}.${relation.foreignKey}`
}

function reverseLinkOf(from: ModelDef, relation: RelationDef): string {
  return `${relation.model}.${relation.foreignKey}→${from.name}.${relation.localKey}`
}

function parseNode(
  model: ModelDef,
  query: Record<string, unknown>,
  ctx: QueryContext,
  path: string,
  depth: number,
  budget: Budget,
  walked: WalkedLinks,
): SelectNode {
  const top = depth === 0
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
      const back = walked.get(reverseLinkOf(model, relation))
      if (back !== undefined) {
        bad(
          `Связь "${name}" в модели ${model.name} ведёт обратно к записям, уже выбранным через "${back}": выберите их поля там`,
          at,
        )
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
      const next = new Map(walked).set(linkOf(model, relation), at.replace(/^query\./, '').replace(/select\./g, ''))
      relations.push({ relation, node: parseNode(target, sub, ctx, at, depth + 1, budget, next) })
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
