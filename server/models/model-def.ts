// The shape of a public model of the generic data API: its table, fields, relations and who may
// read or write it. registry.ts holds the models themselves.
import type { Expression, ExpressionBuilder, Kysely, SqlBool } from 'kysely'

/** `money`: kopecks in the database, rubles (at most two decimals) in the API (src/format/money.ts). */
export type FieldType = 'integer' | 'string' | 'boolean' | 'money'

export interface FieldDef {
  readonly type: FieldType
  readonly nullable: boolean
  /** Holds a stored media path (`uploads/…`); a write may send a file in its place. */
  readonly image?: boolean
  /** Writes may set it (with this JSON Schema for the value). */
  readonly write?: Readonly<Record<string, unknown>>
  /** Must be present on create. */
  readonly required?: boolean
}

export interface RelationDef {
  readonly name: string
  readonly model: string
  readonly kind: 'one' | 'many'
  /** Column of the source row whose value is looked up. */
  readonly localKey: string
  /** Column of the target model that holds that value. */
  readonly foreignKey: string
  /** Order of a list when the query names none. */
  readonly defaultOrder?: ReadonlyArray<readonly [string, 'asc' | 'desc']>
  /** A list written as a structure part holds at most this many items (default 100). */
  readonly maxItems?: number
  /** Written inside each item of its owner's list in a structure write (a variant's option values). */
  readonly written?: boolean
}

export interface ModelDef {
  readonly name: string
  readonly table: string
  /** Primary key column: what PATCH finds a record by and what provider answers as `id`. */
  readonly key: string
  /** The column naming the structure record a row belongs to, when it is not `structureId` */
  readonly owner?: string
  readonly fields: ReadonlyMap<string, FieldDef>
  readonly relations: ReadonlyMap<string, RelationDef>
  readonly defaultSelect: readonly string[]
  /** Column shown as `title` by GET /api/provider/{model}. */
  readonly providerTitle: string
  /** Reading needs the admin token (personal data). */
  readonly adminOnly: boolean
  /** Restricts what a visitor without the token sees: drafts and withdrawn records stay hidden. */
  readonly publicScope?: (eb: ExpressionBuilder<any, any>, db: Kysely<any>) => Expression<SqlBool>
  /**
   * The rows the API reads at all, admin included: not the leads flagged as spam, not a variant's
   * option values among its product's own characteristics.
   */
  readonly scope?: (eb: ExpressionBuilder<any, any>) => Expression<SqlBool>
  /** Accepts POST and PATCH through the generic API. */
  readonly writable: boolean
}
