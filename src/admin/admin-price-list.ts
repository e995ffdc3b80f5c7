// The back office's «Прайс-лист» calls (docs/contract.md §7, "Price list"): a file previewed, then
// applied with the preview's confirm code; and the status of what goes out (the Yandex feed, IndexNow).
import { createHttpClient } from '../api/http-client'
import { ADMIN_API_PATHS } from '../site/paths'

export interface RefusedRow {
  /** The row's number as Excel shows it (the header is row 1) */
  readonly number: number
  readonly article: string | null
  /** Russian, for the owner */
  readonly reason: string
}

export interface PriceCounts {
  readonly format: 'csv' | 'xlsx'
  readonly encoding: string | null
  readonly rows: number
  readonly updated: number
  readonly created: number
  readonly unchanged: number
  readonly refused: readonly RefusedRow[]
  /** The sections the new products name that the site lacks, created on apply («Электроинструмент / Дрели») */
  readonly sections: readonly string[]
  /** The variants of the rows with a «Модель» (a model is one product in the counts above) */
  readonly variants: { readonly created: number; readonly updated: number; readonly removed: number }
}

export interface PricePreview extends PriceCounts {
  /** The first changes (a variant's title is «Товар, вариант»): price before → after (null: on request), or null when the price stays */
  readonly sample: readonly {
    readonly number: number
    readonly article: string
    readonly title: string
    readonly price: readonly [number | null, number | null] | null
    readonly kind: 'update' | 'create'
  }[]
  /** The first variants a model's rows no longer name: removed on apply */
  readonly removedVariants: readonly { readonly article: string | null; readonly title: string }[]
  readonly confirm: string
}

export interface PriceApplied extends PriceCounts {
  /** Products created or changed */
  readonly changed: number
}

export interface FeedRefusal {
  readonly reason: 'vendor' | 'picture' | 'description'
  readonly count: number
  /** The first few offers by id */
  readonly examples: readonly { readonly id: number; readonly title: string }[]
}

export interface FeedsStatus {
  readonly yandexFeed: {
    readonly enabled: boolean
    readonly url: string | null
    /** YANDEX_FEED_VENDOR: the brand of offers without one */
    readonly defaultVendor: string | null
    /** The offers the feed holds */
    readonly offers: number
    /** What Yandex Товары would refuse: offers without a brand, a picture or a description */
    readonly reasons: readonly FeedRefusal[]
  }
  readonly indexNow: {
    readonly enabled: boolean
    readonly keyUrl: string | null
    readonly pending: number
    readonly sent: number
    readonly dead: number
    readonly deadBatches: readonly { reason: string; at: string; urls: number; example: string }[]
  }
}

function upload(file: Blob, name: string, confirm?: string): FormData {
  const form = new FormData()
  if (confirm) form.append('confirm', confirm)
  form.append('file', file, name)
  return form
}

export function createPriceListApi() {
  // 10,000 rows take seconds to check and to write on a busy server.
  const client = createHttpClient({ baseUrl: '', timeoutMs: 120_000 })
  return {
    async preview(file: File): Promise<PricePreview> {
      const body = upload(file, file.name)
      return (await client.request<{ data: PricePreview }>('POST', ADMIN_API_PATHS.priceListPreview, { body })).data
    },
    async apply(file: File, confirm: string): Promise<PriceApplied> {
      const body = upload(file, file.name, confirm)
      return (await client.request<{ data: PriceApplied }>('POST', ADMIN_API_PATHS.priceListApply, { body })).data
    },
    async feeds(signal?: AbortSignal): Promise<FeedsStatus> {
      return (await client.request<{ data: FeedsStatus }>('GET', ADMIN_API_PATHS.feeds, { signal })).data
    },
  }
}

export type PriceListApi = ReturnType<typeof createPriceListApi>
