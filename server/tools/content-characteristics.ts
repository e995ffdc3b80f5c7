// The owner's choices in «Характеристики» in the content export (docs/decisions/042-characteristics-and-filters.md,
// 043-variants.md "In the content export"): read and written through the back office's own routes
// with the admin token (GET /api/admin/characteristics, PUT /api/admin/characteristics/{id}), so
// the same checks hold and every page is dropped as after the owner's save. A characteristic's id
// is its instance's own: the import finds it by its stored name, unit and source, once the records
// have made it, and writes only the ones whose choices differ.
import type { HttpClient } from '../../src/api/http-client'
import { VENDOR_RANGE_ERROR, type ListedCharacteristic } from '../../src/catalogue/characteristics'
import { ADMIN_API_PATHS } from '../../src/site/paths'
import { HttpError } from '../http/http-error'
import { characteristicChangeOf } from '../catalogue/characteristics/characteristic-change'
import type { ExportedCharacteristic } from './content-format'

const auth = (token: string) => ({ authorization: `Bearer ${token}` })

async function listed(http: HttpClient, token: string): Promise<ListedCharacteristic[]> {
  return (
    await http.request<{ data: ListedCharacteristic[] }>('GET', ADMIN_API_PATHS.characteristics, {
      headers: auth(token),
    })
  ).data
}

/** Every characteristic the source lists, with the owner's choices. */
export async function exportCharacteristics(http: HttpClient, token: string): Promise<ExportedCharacteristic[]> {
  return (await listed(http, token)).map(({ name, unit, source, title, shownUnit, shown, filter, sort }) => ({
    name,
    unit,
    source,
    title,
    shownUnit,
    shown,
    filter,
    sort,
  }))
}

const keyOf = (c: { name: string; unit: string; source: string }) => `${c.source}\u0000${c.name}\u0000${c.unit}`
const label = (c: { name?: unknown; unit?: unknown; source?: unknown }) =>
  c.source === 'vendor' ? '«Бренд товара»' : `«${[c.name, c.unit].filter((p) => p).join(', ')}»`

/**
 * The file's characteristics checked as the route checks a save, before the import writes anything:
 * an error in Russian naming the characteristic and its fields.
 */
export function checkCharacteristics(list: unknown): ExportedCharacteristic[] {
  if (!Array.isArray(list)) throw new Error('Характеристики в файле — не список')
  const seen = new Set<string>()
  return list.map((item: unknown) => {
    const entry = (item !== null && typeof item === 'object' ? item : {}) as Record<string, unknown>
    const { name, unit } = entry
    const source = entry.source ?? 'property'
    if (typeof name !== 'string' || typeof unit !== 'string' || (source !== 'property' && source !== 'vendor')) {
      throw new Error(`Характеристика ${label(entry)} в файле: нет имени, единицы или источника`)
    }
    try {
      const change = characteristicChangeOf(entry)
      if (source === 'vendor' && change.filter === 'range') {
        throw new HttpError(400, 'Проверьте характеристику', 'validation_failed', { filter: VENDOR_RANGE_ERROR })
      }
      const checked = { name, unit, source, ...change } as ExportedCharacteristic
      if (seen.has(keyOf(checked))) throw new Error(`Характеристика ${label(entry)} указана в файле дважды`)
      seen.add(keyOf(checked))
      return checked
    } catch (error) {
      if (!(error instanceof HttpError)) throw error
      const fields = Object.entries(error.errors ?? {}).map(([field, text]) => `${field} — ${text}`)
      throw new Error(`Характеристика ${label(entry)} в файле: ${error.message} (${fields.join('; ')})`)
    }
  })
}

/**
 * The file's choices made on the target: each characteristic found by its name, unit and source
 * and changed when its choices differ. One no product of the target carries is not there: counted
 * as missing. Returns how many were changed and how many missing.
 */
export async function importCharacteristics(
  http: HttpClient,
  token: string,
  list: readonly ExportedCharacteristic[],
  log: (line: string) => void,
): Promise<{ changed: number; missing: number }> {
  const there = new Map((await listed(http, token)).map((c) => [keyOf(c), c]))
  let changed = 0
  let missing = 0
  for (const wanted of list) {
    const twin = there.get(keyOf(wanted))
    if (!twin) {
      missing++
      log(`Characteristic ${label(wanted)}: no product of the site carries it, its choices are not set`)
      continue
    }
    const { title, shownUnit, shown, filter, sort } = wanted
    const same =
      twin.title === title &&
      twin.shownUnit === shownUnit &&
      twin.shown === shown &&
      twin.filter === filter &&
      twin.sort === sort
    if (same) continue
    await http.request('PUT', ADMIN_API_PATHS.characteristic(twin.id), {
      json: { title, shownUnit, shown, filter, sort },
      headers: auth(token),
    })
    changed++
  }
  return { changed, missing }
}
