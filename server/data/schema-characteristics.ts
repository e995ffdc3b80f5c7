// The characteristics' table (issue 46, docs/decisions/042-characteristics-and-filters.md; migrations
// 031 and 036), apart from schema.ts to keep each file short.
import type { ColumnType, Generated } from 'kysely'
import type { CharacteristicSource, FilterKind } from '../../src/catalogue/characteristics'

/** A characteristic products carry, with the owner's choices (migration 031, decision 042) */
export interface CharacteristicTable {
  id: Generated<number>
  name: string
  unit: string
  title: string
  shownUnit: string
  shown: ColumnType<number, number | undefined, number>
  filter: ColumnType<FilterKind, FilterKind | undefined, FilterKind>
  sort: ColumnType<number, number | undefined, number>
  /** Where its values are read (migration 036): the products' characteristics rows, or their brand */
  source: ColumnType<CharacteristicSource, CharacteristicSource | undefined, never>
}
