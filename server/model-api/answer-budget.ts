// The bound on a whole answer of the read API (docs/decisions/024-public-reads.md): the rows it
// emits across the tree of relations and the bytes of their values. Counted twice, so the work
// stops as early as it can: while loading (a level's query asks for no more rows than are left, and
// every loaded row is emitted at least once) and while shaping the output (a record reached through
// a `one` relation from many rows is emitted once per row). Past either bound: a 400, nothing sent.
import { rublesNumber } from '../../src/format/money'
import { HttpError } from '../http/http-error'
import type { FieldType } from '../models/model-def'
import type { Row, SelectNode } from './query-tree'

export interface AnswerLimits {
  readonly rows: number
  /** Bytes of the JSON values and keys, counted as UTF-8 */
  readonly bytes: number
}

/** A row as loaded: every column read, and the raw rows of each relation under its name. */
export interface RawRow {
  readonly columns: Row
  readonly related: Map<string, RawRow[] | RawRow | null>
}

/** About what a value takes in the JSON answer: its text, quotes and separator. */
function valueBytes(value: unknown): number {
  if (typeof value === 'string') return Buffer.byteLength(value) + 3
  if (value === null || value === undefined) return 5
  return String(value).length + 1
}

export class AnswerBudget {
  private loadedRows = 0
  private loadedBytes = 0
  private emittedRows = 0
  private emittedBytes = 0

  constructor(private readonly limits: AnswerLimits) {}

  /** How many more rows one query may load: one over what is left, to tell that the bound was passed. */
  get rowsToAsk(): number {
    return this.limits.rows - this.loadedRows + 1
  }

  /** Counts rows a query returned (the node's own fields only: keys used for joining are not sent). */
  loaded(rows: readonly Row[], fields: readonly string[]): void {
    this.loadedRows += rows.length
    if (this.loadedRows > this.limits.rows) this.tooManyRows()
    for (const row of rows) for (const name of fields) this.loadedBytes += name.length + valueBytes(row[name])
    if (this.loadedBytes > this.limits.bytes) this.tooManyBytes()
  }

  /** The output objects: selected fields in order, then relations; 0/1 flags become booleans. */
  shape(node: SelectNode, rows: readonly RawRow[]): Row[] {
    return rows.map((row) => this.shapeRow(node, row))
  }

  private shapeRow(node: SelectNode, row: RawRow): Row {
    if (++this.emittedRows > this.limits.rows) this.tooManyRows()
    const out: Row = {}
    for (const name of node.fields) {
      const value = row.columns[name]
      this.emittedBytes += name.length + valueBytes(value)
      out[name] = apiValue(node.model.fields.get(name)?.type, value)
    }
    if (this.emittedBytes > this.limits.bytes) this.tooManyBytes()
    for (const { relation, node: child } of node.relations) {
      const value = row.related.get(relation.name)
      out[relation.name] = Array.isArray(value) ? this.shape(child, value) : value ? this.shapeRow(child, value) : null
    }
    return out
  }

  private tooManyRows(): never {
    throw new HttpError(
      400,
      `Ответ слишком большой: больше ${this.limits.rows} записей вместе со связанными. Уточните запрос: take, where или меньше связей`,
      'answer_too_large',
    )
  }

  private tooManyBytes(): never {
    throw new HttpError(
      400,
      `Ответ слишком большой: больше ${Math.round(this.limits.bytes / 1_000_000)} МБ. Выберите меньше полей или записей (select, take)`,
      'answer_too_large',
    )
  }
}

/** A stored value as the API answers it: 0/1 flags as booleans, kopecks as rubles. */
function apiValue(type: FieldType | undefined, value: unknown): unknown {
  if (value === null || value === undefined) return value
  if (type === 'boolean') return Boolean(value)
  if (type === 'money') return rublesNumber(value as number)
  return value
}
