// Runs a parsed query (query-parser.ts) with dialect-neutral Kysely queries. Relations are loaded
// by one batched follow-up query per relation and level (`where parentId in (…)`), never with JSON
// SQL functions, so SQLite and PostgreSQL answer alike; SQL text never reaches the client.
import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from 'kysely'
import { bad } from './query-parser'
import {
  QUERY_LIMITS,
  type Direction,
  type QueryContext,
  type Row,
  type Scalar,
  type SelectNode,
  type WhereNode,
} from './query-tree'

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
