// The back office's «Характеристики» calls (docs/contract.md §7; docs/decisions/042-characteristics-and-filters.md).
import { createHttpClient } from '../api/http-client'
import { ADMIN_API_PATHS } from '../site/paths'
import type { Characteristic, ListedCharacteristic } from '../catalogue/characteristics'

export type CharacteristicChange = Pick<Characteristic, 'title' | 'shownUnit' | 'shown' | 'filter' | 'sort'>

export function createCharacteristicsApi() {
  const client = createHttpClient({ baseUrl: '' })
  return {
    async list(signal?: AbortSignal): Promise<ListedCharacteristic[]> {
      return (
        await client.request<{ data: ListedCharacteristic[] }>('GET', ADMIN_API_PATHS.characteristics, { signal })
      ).data
    },
    async save(id: number, change: CharacteristicChange): Promise<ListedCharacteristic[]> {
      return (
        await client.request<{ data: ListedCharacteristic[] }>('PUT', ADMIN_API_PATHS.characteristic(id), {
          json: change,
        })
      ).data
    },
  }
}
