// The back office's «Обмен с 1С» calls (docs/contract.md §7; docs/decisions/032-1c-exchange.md):
// the exchange's address and settings, the price types 1C sent, and the last exchanges.
import { createHttpClient } from '../api/http-client'
import { ADMIN_API_PATHS } from '../site/paths'

export interface ExchangeSettings {
  readonly enabled: boolean
  /** 1C's price type (Ид or name) that is the price; '' = the first */
  readonly priceType: string
  /** The price type that is the old price; '' = none */
  readonly oldPriceType: string
  readonly zeroStock: 'out_of_stock' | 'on_order'
}

export interface ExchangeTally {
  readonly groupsCreated: number
  readonly groupsUpdated: number
  readonly groupsWithdrawn: number
  readonly productsCreated: number
  readonly productsUpdated: number
  readonly productsWithdrawn: number
  readonly imagesTaken: number
  readonly offersUpdated: number
  readonly offersSkipped: number
  readonly variants: number
  /** Orders whose status 1C sent back (absent in runs logged before) */
  readonly ordersUpdated?: number
}

export interface ExchangeRun {
  readonly id: number
  readonly startedAt: string
  readonly finishedAt: string | null
  readonly status: 'running' | 'success' | 'failure'
  readonly message: string | null
  readonly files: readonly string[]
  readonly tally: ExchangeTally
  readonly skipped: readonly { readonly what: string; readonly why: string }[]
  readonly skippedCount: number
  /** Offers of products' characteristics (the first 100; `tally.variants` counts them all) */
  readonly variants?: readonly {
    readonly offer: string
    readonly name: string | null
    readonly price: number | null
    readonly quantity: number | null
  }[]
}

export interface ExchangeOverview {
  readonly url: string
  /** EXCHANGE_1C_LOGIN and EXCHANGE_1C_PASSWORD are set */
  readonly configured: boolean
  readonly login: string | null
  readonly settings: ExchangeSettings
  readonly priceTypes: readonly { readonly id: string; readonly name: string }[]
  readonly runs: readonly ExchangeRun[]
}

export function createExchangeApi() {
  const client = createHttpClient({ baseUrl: '' })
  return {
    async overview(signal?: AbortSignal): Promise<ExchangeOverview> {
      return (await client.request<{ data: ExchangeOverview }>('GET', ADMIN_API_PATHS.exchange, { signal })).data
    },
    async save(settings: ExchangeSettings): Promise<ExchangeOverview> {
      return (await client.request<{ data: ExchangeOverview }>('PUT', ADMIN_API_PATHS.exchange, { json: settings }))
        .data
    },
  }
}

export type ExchangeApi = ReturnType<typeof createExchangeApi>
