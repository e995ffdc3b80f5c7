// The editor's «Варианты» (docs/contract.md §7, docs/decisions/043-variants.md): a product's variants
// with their option values and pictures, and the calls that add, edit, reorder and remove one. Prices
// travel as rubles with at most two decimals, as every admin API's do (src/format/money.ts); a new
// picture goes as the file `image` of a multipart write, as the write API's images do (multipart.ts).
import { createHttpClient } from '../api/http-client'
import { toFormData } from '../api/multipart'
import { ADMIN_API_PATHS } from '../site/paths'
import type { ProductAvailability, VariantRow } from './admin-products'

/** One option value of a variant: «Цвет: Синий», «Размер: 160×230 см» */
export interface VariantOption {
  readonly name: string
  readonly value: string
  readonly unit: string | null
}

/** A variant as the editor shows it: «Товары»' row with its option values */
export interface EditorVariant extends VariantRow {
  /** Its picture (`uploads/…`), which leads the product's gallery when it is chosen; null: none */
  readonly image: string | null
  readonly options: readonly VariantOption[]
}

/** GET /api/admin/products/{id}/variants */
export interface VariantList {
  /** The product comes from 1C: its variants 1C sent keep their title, артикул and options 1C's */
  readonly fromOneC: boolean
  /** The characteristics its variants differ by, in their order (the form's option fields) */
  readonly options: readonly { readonly name: string; readonly unit: string | null }[]
  readonly variants: readonly EditorVariant[]
}

/** What a write sets of a variant; a field left out stays (a new variant: title needed) */
export interface VariantWrite {
  title?: string
  article?: string | null
  price?: number | null
  oldPrice?: number | null
  availability?: ProductAvailability
  /** A file to upload, the stored picture as read (no change), or null to remove it */
  image?: Blob | string | null
  options?: VariantOption[]
}

/** JSON, or multipart when it carries a picture to upload */
const bodyOf = (variant: VariantWrite) =>
  variant.image instanceof Blob ? { body: toFormData({ ...variant }) } : { json: variant }

export function createVariantsApi() {
  const client = createHttpClient({ baseUrl: '' })
  return {
    async list(productId: number): Promise<VariantList> {
      return (await client.request<{ data: VariantList }>('GET', ADMIN_API_PATHS.productVariants(productId))).data
    },
    async add(productId: number, variant: VariantWrite): Promise<number> {
      const path = ADMIN_API_PATHS.productVariants(productId)
      return (await client.request<{ data: { variantId: number } }>('POST', path, bodyOf(variant))).data.variantId
    },
    async edit(productId: number, variantId: number, change: VariantWrite): Promise<void> {
      await client.request('PATCH', ADMIN_API_PATHS.productVariant(productId, variantId), bodyOf(change))
    },
    async remove(productId: number, variantId: number): Promise<void> {
      await client.request('DELETE', ADMIN_API_PATHS.productVariant(productId, variantId))
    },
    async reorder(productId: number, ids: readonly number[]): Promise<void> {
      await client.request('PUT', ADMIN_API_PATHS.productVariantOrder(productId), { json: { ids } })
    },
  }
}

export type VariantsApi = ReturnType<typeof createVariantsApi>
