// «Товары»'s calls (docs/contract.md §7, "Products"): a page of products by the filter in the URL,
// an edit in place (of a product or its variant), the ids «все по фильтру» and the batches of an action, the audit log.
import { createHttpClient } from '../api/http-client'
import { ADMIN_API_PATHS } from '../site/paths'
import type { OneCField } from '../catalogue/one-c-fields'

export type ProductAvailability = 'in_stock' | 'on_order' | 'out_of_stock'
export type ProductState = 'published' | 'draft' | 'withdrawn'

export interface ProductRow {
  readonly id: number
  readonly title: string
  readonly urlFull: string
  readonly article: string | null
  readonly sectionId: number | null
  readonly sectionTitle: string | null
  readonly price: number | null
  readonly oldPrice: number | null
  readonly availability: ProductAvailability
  readonly state: ProductState
  readonly image: string | null
  readonly updatedAt: string
  /** From 1C: the fields the exchange overwrites in it (maybe none); null: the site's own product */
  readonly oneC: readonly OneCField[] | null
  /** Its variants in their order (decision 043); its price and availability are theirs then */
  readonly variants: readonly VariantRow[]
}

/** A variant of a product in «Товары»: its price, old price and availability are edited in place */
export interface VariantRow {
  readonly id: number
  readonly title: string
  readonly article: string | null
  readonly price: number | null
  readonly oldPrice: number | null
  readonly availability: ProductAvailability
  /** From 1C: the fields its exchange overwrites (1C writes a variant's price and stock every time) */
  readonly oneC: readonly OneCField[] | null
}

export type InlineEdit = { price?: number | null; oldPrice?: number | null; availability?: ProductAvailability }

export interface ProductPage {
  readonly data: readonly ProductRow[]
  readonly total: number
  readonly totalOver: boolean
  readonly next: string | null
}

export interface SectionOption {
  readonly id: number
  readonly parentId: number | null
  readonly title: string
  readonly urlFull: string
  /** How deep in the content tree (0: a top section); the list comes in the tree's order */
  readonly depth: number
}

/**
 * A section as an option of a select: indented by its depth (a select's options take no padding,
 * so with no-break spaces), its title and its address.
 */
export function sectionOptionText(section: SectionOption): string {
  return `${'\u00a0\u00a0\u00a0'.repeat(section.depth)}${section.title} (${section.urlFull})`
}

export type ProductActionInput =
  | { readonly kind: 'publish' | 'hide' | 'withdraw' | 'delete' }
  | { readonly kind: 'move'; readonly sectionId: number }
  | { readonly kind: 'availability'; readonly availability: ProductAvailability }
  | {
      readonly kind: 'price'
      /** Percent with at most two decimals, its result rounded as chosen */
      readonly percent?: number
      readonly rounding?: PriceRounding
      /** Rubles (at most two decimals) to add; negative to take off */
      readonly amount?: number
      readonly keepOldPrice: boolean
    }

/** How a percent change rounds the new price (server/catalogue/product-table/price-change.ts). */
export const PRICE_ROUNDING_LABELS = [
  ['kopeck', 'до копейки'],
  ['ruble', 'до рубля'],
  ['ten', 'до 10 ₽'],
  ['ninety', 'до …90 ₽'],
] as const
export type PriceRounding = (typeof PRICE_ROUNDING_LABELS)[number][0]

export interface AuditEntry {
  readonly at: string
  readonly lastAt: string
  readonly who: string
  readonly action: string
  readonly count: number
}

export interface ActionPreview {
  readonly changes: number
  /** Of the chosen products, those whose changed field 1C overwrites at its next exchange */
  readonly oneC: number
}

/** Products one action request names (the server refuses more): each batch is one short write */
export const ACTION_BATCH = 200

export const AVAILABILITY_LABELS: Readonly<Record<ProductAvailability, string>> = {
  in_stock: 'В наличии',
  on_order: 'Под заказ',
  out_of_stock: 'Нет в наличии',
}

export const STATE_LABELS: Readonly<Record<ProductState, string>> = {
  published: 'Опубликован',
  draft: 'Черновик',
  withdrawn: 'Снят',
}

/** The filter and sort keys «Товары» keeps in its URL (and sends as they are). */
export const PRODUCT_QUERY_KEYS = [
  'q',
  'section',
  'avail',
  'state',
  'noPhoto',
  'noPrice',
  'noDescription',
  'sort',
  'dir',
] as const

export function createProductsApi() {
  const client = createHttpClient({ baseUrl: '' })
  const withQuery = (path: string, query: URLSearchParams) => (query.size > 0 ? `${path}?${query}` : path)
  return {
    async page(query: URLSearchParams, signal?: AbortSignal): Promise<ProductPage> {
      return client.request<ProductPage>('GET', withQuery(ADMIN_API_PATHS.products, query), { signal })
    },
    async ids(query: URLSearchParams): Promise<{ ids: number[]; more: boolean; batch: number }> {
      return (
        await client.request<{ data: { ids: number[]; more: boolean; batch: number } }>(
          'GET',
          withQuery(ADMIN_API_PATHS.productIds, query),
        )
      ).data
    },
    async sections(): Promise<SectionOption[]> {
      return (await client.request<{ data: SectionOption[] }>('GET', ADMIN_API_PATHS.productSections)).data
    },
    async edit(id: number, change: InlineEdit) {
      await client.request('PATCH', ADMIN_API_PATHS.product(id), { json: change })
    },
    /** A variant's price, old price or availability; its product's follow (decision 043) */
    async editVariant(productId: number, variantId: number, change: InlineEdit) {
      await client.request('PATCH', ADMIN_API_PATHS.productVariant(productId, variantId), { json: change })
    },
    async act(operation: string, ids: readonly number[], action: ProductActionInput): Promise<number> {
      const body = await client.request<{ data: { changed: number } }>('POST', ADMIN_API_PATHS.productActions, {
        json: { operation, ids, action },
      })
      return body.data.changed
    },
    /**
     * How many of the products the action would change (nothing written), and how many of the chosen
     * 1C will set back at its next exchange (a price or availability it overwrites).
     */
    async preview(ids: readonly number[], action: ProductActionInput): Promise<ActionPreview> {
      const body = await client.request<{ data: ActionPreview }>('POST', ADMIN_API_PATHS.productActions, {
        json: { operation: 'preview-only', ids, action, preview: true },
      })
      return body.data
    },
    /**
     * The editor's mark of a product: whether it comes from 1C and which of its fields the exchange
     * overwrites, and how many variants it has (its price and availability are theirs then)
     */
    async mark(id: number): Promise<ProductMark> {
      return (await client.request<{ data: ProductMark }>('GET', ADMIN_API_PATHS.productOneC(id))).data
    },
    async audit(): Promise<AuditEntry[]> {
      return (await client.request<{ data: AuditEntry[] }>('GET', ADMIN_API_PATHS.productAudit)).data
    },
  }
}

export type ProductsApi = ReturnType<typeof createProductsApi>

/** GET /api/admin/products/{id}/one-c: what the editor shows of a product beyond its record */
export interface ProductMark {
  /** null: the site's own product; else the fields 1C overwrites in it (decision 044) */
  readonly oneC: readonly OneCField[] | null
  /** How many variants it has: its price, old price and availability are theirs then (decision 043) */
  readonly variants: number
}
