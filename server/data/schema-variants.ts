// The variants' table (issue 46 item 3, docs/decisions/043-variants.md; migration 032), apart from
// schema.ts to keep each file short.
import type { ColumnType, Generated } from 'kysely'
import type { Availability } from './schema'

/** One variant of a product (migration 032, decision 043): its own артикул, prices, stock and picture */
export interface ProductVariantTable {
  id: Generated<number>
  productId: number
  /** 1C's characteristic Ид (after `#` in the offer's Ид); null for the site's own variants */
  externalId: string | null
  /** The combination shown: «Синий, 160×230» */
  title: string
  article: string | null
  /** Whole kopecks */
  price: number | null
  oldPrice: number | null
  availability: ColumnType<Availability, Availability | undefined, Availability>
  image: string | null
  sort: ColumnType<number, number | undefined, number>
  /** The 1C exchange's run that made it (migration 034, decision 044); null for the others */
  createdRun: ColumnType<number | null, number | null | undefined, number | null>
}
