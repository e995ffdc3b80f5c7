// A search hit on a variant's артикул (docs/decisions/043-variants.md): when the whole query is the
// артикул of one of a found product's variants («РИ-3006-22», «ри 3006 22», «РИ300622»: one key),
// the hit is that variant: its link `?v=<id>`, its title after the product's, its артикул, price,
// availability and picture. The variants are read for the page's products only, in one statement.
import type { Kysely, Transaction } from 'kysely'
import type { Database } from '../../data/schema'
import type { SearchQuery } from './search-query'
import { articleKey } from './search-text'
import { loadVariants, type VariantRow } from '../products/product-row-reads'

type Queryable = Kysely<Database> | Transaction<Database>

/** The variant a hit links to: its артикул is the query's. */
export type MatchedVariant = Omit<VariantRow, 'externalId' | 'article'> & { article: string }

/** Of the found products, those one of whose variants has the query's артикул key: that variant (the first). */
export async function matchedVariants(
  db: Queryable,
  productIds: readonly number[],
  query: SearchQuery,
): Promise<Map<number, MatchedVariant>> {
  const out = new Map<number, MatchedVariant>()
  if (query.articleKey === null || productIds.length === 0) return out
  for (const [productId, variants] of await loadVariants(db, productIds)) {
    const variant = variants.find((v) => v.article !== null && articleKey(v.article) === query.articleKey)
    if (!variant) continue
    const { id, title, price, oldPrice, availability, image } = variant
    out.set(productId, { id, title, article: variant.article!, price, oldPrice, availability, image })
  }
  return out
}
