// The checked query tree the parser builds (query-parser.ts) and the executor runs
// (query-executor.ts), and the limits that bound the work one request may ask for.
import type { ModelDef, RelationDef } from '../models/model-def'

export const QUERY_LIMITS = Object.freeze({
  /** Largest `take`, and the default when a top-level query names none. */
  maxTake: 500,
  maxSkip: 100_000,
  /** Levels of relations under the queried model (the spec's catalogue tree needs 4). */
  maxRelationDepth: 4,
  /** Nesting of AND/OR/NOT and `not` filters. */
  maxWhereDepth: 8,
  /** Keys and values looked at in one query: bounds the work a single request can ask for. */
  maxNodes: 400,
  maxListItems: 500,
  maxStringLength: 1000,
  /** Characters of the `query` parameter. */
  maxQueryLength: 16_384,
})

/**
 * The whole answer, relations included (docs/decisions/024-public-reads.md): rows emitted
 * across the tree and the bytes of their values. Visitors get what a page of the site could need;
 * the owner's tools page through the catalogue with `take`/`skip`.
 */
export const ANSWER_LIMITS = Object.freeze({
  public: Object.freeze({ rows: 2_000, bytes: 1_000_000 }),
  admin: Object.freeze({ rows: 10_000, bytes: 16_000_000 }),
})

export interface QueryContext {
  /** The request carries the admin token. */
  readonly isAdmin: boolean
}

export type Direction = 'asc' | 'desc'
export type Scalar = string | number | null

export type WhereNode =
  | { readonly kind: 'and' | 'or'; readonly items: readonly WhereNode[] }
  | { readonly kind: 'not'; readonly item: WhereNode }
  | {
      readonly kind: 'cmp'
      readonly column: string
      readonly op: ComparisonOp
      readonly value: Scalar | readonly Scalar[]
    }

export type ComparisonOp =
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
