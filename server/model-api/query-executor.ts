// Runs a parsed query (query-parser.ts) with dialect-neutral Kysely queries. Relations are loaded
// by one batched follow-up query per relation and level (`where parentId in (…)`), never with JSON
// SQL functions, so SQLite and PostgreSQL answer alike; SQL text never reaches the client. A list's
// own take/skip is applied per parent in SQL (row_number() over the parent's key), so a level
// loads no row it will not send, and the whole answer stays within its budget (answer-budget.ts).
import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from 'kysely'
import { AnswerBudget, type RawRow } from './answer-budget'
import {
  ANSWER_LIMITS,
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

/** Keys of one `in (…)` list: far below the parameter limits of both dialects. */
const KEYS_PER_QUERY = 500
/** The column row_number() goes to; no model has a field of that name. */
const RANK = '_rank'

/** Runs a parsed query: the rows of the model with their relations, shaped as the select asks. */
export async function executeQuery(db: Kysely<any>, node: SelectNode, ctx: QueryContext): Promise<Row[]> {
  return (await executePage(db, node, ctx)).rows
}

/**
 * Runs a parsed query and tells whether rows are left after the ones sent (the `next` of a `many`
 * answer, docs/contract.md §3): one row more than `take` is read at the top level, never shaped.
 */
export async function executePage(
  db: Kysely<any>,
  node: SelectNode,
  ctx: QueryContext,
): Promise<{ rows: Row[]; more: boolean }> {
  const budget = new AnswerBudget(ctx.isAdmin ? ANSWER_LIMITS.admin : ANSWER_LIMITS.public)
  const page = { more: false }
  const rows = await load(db, node, ctx, null, budget, page)
  return { rows: budget.shape(node, rows), more: page.more }
}

function orderSql(order: ReadonlyArray<readonly [string, Direction]>) {
  return sql.join(order.map(([column, direction]) => sql`${sql.ref(column)} ${sql.raw(direction)}`))
}

async function load(
  db: Kysely<any>,
  node: SelectNode,
  ctx: QueryContext,
  filter: LoadFilter | null,
  budget: AnswerBudget,
  page: { more: boolean } = { more: false },
): Promise<RawRow[]> {
  const { model } = node
  const columns = new Set(node.fields)
  for (const { relation } of node.relations) columns.add(relation.localKey)
  if (filter) columns.add(filter.column)
  columns.add(model.key)
  const chosen = node.orderBy.length > 0 ? node.orderBy : (filter?.defaultOrder ?? [])
  // The key last, so equal sort values come in one order on both dialects.
  const order = chosen.some(([column]) => column === model.key) ? chosen : [...chosen, [model.key, 'asc'] as const]

  const build = (values: readonly Scalar[] | null) => {
    let query = db.selectFrom(model.table).select([...columns])
    if (model.scope) query = query.where((eb) => model.scope!(eb))
    if (model.publicScope && !ctx.isAdmin) query = query.where((eb) => model.publicScope!(eb, db))
    if (node.where) query = query.where((eb) => toExpression(eb, node.where!))
    if (filter && values) query = query.where(filter.column, 'in', values as Scalar[])
    return query
  }
  const ordered = (values: readonly Scalar[] | null) => {
    let query = build(values)
    for (const [column, direction] of order) query = query.orderBy(column, direction)
    return query
  }

  const found: Row[] = []
  if (!filter) {
    // One row past `take` tells whether the answer stopped at its limit (executePage); it is
    // dropped before its relations are loaded.
    const take = node.take ?? QUERY_LIMITS.maxTake
    found.push(
      ...(await ordered(null)
        .limit(Math.min(take + 1, budget.rowsToAsk))
        .offset(node.skip)
        .execute()),
    )
    if (found.length > take) {
      found.length = take
      page.more = true
    }
    budget.loaded(found, node.fields)
  } else {
    const keys = [...new Set(filter.values.filter((v) => v !== null && v !== undefined))]
    const perParent = node.take !== null || node.skip > 0
    for (let i = 0; i < keys.length; i += KEYS_PER_QUERY) {
      const chunk = keys.slice(i, i + KEYS_PER_QUERY)
      let rows: Row[]
      if (perParent) {
        const rank = sql<number>`row_number() over (partition by ${sql.ref(filter.column)} order by ${orderSql(order)})`
        let query = db.selectFrom(build(chunk).select(rank.as(RANK)).as('ranked')).selectAll()
        if (node.skip > 0) query = query.where(RANK, '>', node.skip)
        if (node.take !== null) query = query.where(RANK, '<=', node.skip + node.take)
        rows = await query.orderBy(RANK).limit(budget.rowsToAsk).execute()
      } else {
        rows = await ordered(chunk).limit(budget.rowsToAsk).execute()
      }
      budget.loaded(rows, node.fields)
      found.push(...rows)
    }
  }
  const rows: RawRow[] = found.map((columns) => ({ columns, related: new Map() }))

  for (const { relation, node: child } of node.relations) {
    const related = await load(
      db,
      child,
      ctx,
      {
        column: relation.foreignKey,
        values: rows.map((r) => r.columns[relation.localKey] as Scalar),
        defaultOrder: relation.defaultOrder ?? [],
      },
      budget,
    )
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
      row.related.set(relation.name, relation.kind === 'one' ? (list[0] ?? null) : list)
    }
  }
  return rows
}
