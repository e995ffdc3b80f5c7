// «Товары»'s variants (docs/decisions/043-variants.md): a product with variants lists them under it,
// each with its title, артикул, price, old price and availability, read for the page's products in
// one statement; a variant's price, old price and availability are edited in place through the
// variant repository (variant-editor.ts, products/variant-rows.ts), which makes the product's own follow. The product's
// own price and availability are its variants', so an edit of them is refused with the reason, here
// and in the model API's writes (the editor's save).
import type { Db } from '../../data/db'
import { rublesNumber } from '../../../src/format/money'
import type { VariantRow } from '../../../src/admin/admin-products'
import type { OneCField } from '../../../src/catalogue/one-c-fields'
import { FOLLOWS_VARIANTS } from '../../../src/catalogue/variant-fields'
import { HttpError } from '../../http/http-error'
import type { VariantFields } from '../products/variant-rows'
import { loadProductRows } from '../products/product-rows'
import { loadVariants, type VariantRow as StoredVariant } from '../products/product-row-reads'
import type { ContentWrite } from '../../content/content-write'

const FOLLOWED = ['price', 'oldPrice', 'availability'] as const

/** A variant's fields the owner's switches name (decision 044): its title, артикул and options are 1C's. */
const ONE_C_VARIANT_FIELDS: readonly OneCField[] = ['price', 'stock']

/**
 * The variants of the page's products (at most a page: one statement), in their order, by product.
 * A variant 1C sent (its characteristic Ид) of a product from 1C carries the fields 1C overwrites
 * in it at each exchange: of its price and stock, those the owner lets 1C overwrite (`overwrite`).
 */
export async function tableVariants(
  db: Db,
  productIds: readonly number[],
  fromOneC: ReadonlySet<number>,
  overwrite: readonly OneCField[],
): Promise<Map<number, VariantRow[]>> {
  const out = new Map<number, VariantRow[]>()
  const oneC = ONE_C_VARIANT_FIELDS.filter((field) => overwrite.includes(field))
  if (productIds.length === 0) return out
  for (const [productId, variants] of await loadVariants(db, productIds)) {
    const rows = variants.map((row): VariantRow => ({
      id: row.id,
      title: row.title,
      article: row.article,
      price: row.price === null ? null : rublesNumber(row.price),
      oldPrice: row.oldPrice === null ? null : rublesNumber(row.oldPrice),
      availability: row.availability,
      oneC: row.externalId !== null && fromOneC.has(productId) ? oneC : null,
    }))
    out.set(productId, rows)
  }
  return out
}

/** How many variants a product has (the editor's mark: its price and availability are theirs then). */
export async function variantCount(db: Db, productId: number): Promise<number> {
  const row = await db
    .selectFrom('productVariant')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('productId', '=', productId)
    .executeTakeFirstOrThrow()
  return Number(row.count)
}

/** Whether the product has variants: its price and availability are theirs then. */
export async function hasVariants(unit: ContentWrite, productId: number): Promise<boolean> {
  const row = await unit.trx
    .selectFrom('productVariant')
    .select('id')
    .where('productId', '=', productId)
    .limit(1)
    .executeTakeFirst()
  return row !== undefined
}

/**
 * The refusal of an edit of a product's own price or availability when its variants set them: 400
 * with the field error (its name after `prefix`: «product.» in a structure write).
 */
export function followsVariants(change: VariantFields, prefix = ''): never {
  const field = change.availability !== undefined && change.price === undefined ? 'availability' : 'price'
  const message = FOLLOWS_VARIANTS[field]
  const key = change.price === undefined && change.oldPrice !== undefined ? 'oldPrice' : field
  throw new HttpError(400, message, 'validation_failed', { [`${prefix}${key}`]: message })
}

/**
 * The model API's write of a product's row (the editor's save, `PATCH /api/product`): a change of
 * the price, old price or availability of a product with variants is refused as «Товары» refuses
 * it, before anything is written; a value sent as it is stored passes (the whole row sent back).
 */
export async function refuseFollowedChange(
  unit: ContentWrite,
  id: number,
  product: VariantFields | null | undefined,
  prefix: string,
): Promise<void> {
  const sent = FOLLOWED.filter((field) => product?.[field] !== undefined)
  if (sent.length === 0 || !(await hasVariants(unit, id))) return
  const stored = (await loadProductRows(unit.trx, [id])).get(id)
  const changed = sent.filter((field) => stored && product![field] !== stored[field])
  if (changed.length > 0) followsVariants(Object.fromEntries(changed.map((f) => [f, product![f]])), prefix)
}

/** The prices and availability of the given products' variants, by product (a statement per 500 products). */
export async function variantFieldsOf(
  db: Db | ContentWrite['trx'],
  productIds: readonly number[],
): Promise<Map<number, Pick<StoredVariant, 'id' | 'price' | 'oldPrice' | 'availability'>[]>> {
  return loadVariants(db, productIds)
}
