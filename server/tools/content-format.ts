// The content export's format, shared by the export (content.ts) and the import (content-import.ts).

import type { CharacteristicSource, FilterKind } from '../../src/catalogue/characteristics'

export const EXPORT_FORMAT = 'vitrina-content'

/**
 * The version the export writes. 2 (decision 043, "In the content export"): each product's
 * `variants` with their option values, and the owner's `characteristics`. A file of version 1 has
 * neither and still imports: the target's variants and choices are then left as they are.
 */
export const EXPORT_VERSION = 2
export const READABLE_VERSIONS: readonly number[] = [1, 2]

/**
 * Version 1 read a product's characteristics with its variants' option values among them, which
 * were then stored from this place on (variant-rows.ts): the import leaves them out of such a file.
 */
export const VERSION_1_OPTION_SORT = 100_000

export type Record_ = Record<string, unknown>

/** The owner's choices for one characteristic («Характеристики», decision 042), found by its stored name and unit */
export interface ExportedCharacteristic {
  readonly name: string
  readonly unit: string
  readonly source: CharacteristicSource
  readonly title: string
  readonly shownUnit: string
  readonly shown: boolean
  readonly filter: FilterKind
  readonly sort: number
}

export interface ContentExport {
  readonly format: typeof EXPORT_FORMAT
  readonly version: number
  readonly exportedAt: string
  readonly structure: Record_[]
  readonly orderType: Record_[]
  /** Media path → the file, base64 */
  readonly images: Record<string, { readonly contentType: string; readonly base64: string }>
  /** Version 2, when the export had the admin token (the back office's route reads them) */
  readonly characteristics?: ExportedCharacteristic[]
}

/** The lists of a record, each written in its order (the export's `sort` is that order). */
export const LISTS = ['sliderItems', 'advantages', 'images', 'properties', 'variants'] as const

/** Image-holding slots of one record with their dot paths under `prefix` (`records.3.images.0.image`). */
export function imageSlotsWithPaths(record: Record_, prefix: string): Array<[Record_, string, string]> {
  const slots: Array<[Record_, string, string]> = [[record, 'metaImage', `${prefix}.metaImage`]]
  const part = (name: string) => record[name] as Record_ | null | undefined
  if (part('index')) slots.push([part('index')!, 'logo', `${prefix}.index.logo`])
  if (part('product')) slots.push([part('product')!, 'image', `${prefix}.product.image`])
  for (const list of LISTS) {
    for (const [i, item] of ((record[list] as Record_[] | undefined) ?? []).entries()) {
      if (list !== 'properties') slots.push([item, 'image', `${prefix}.${list}.${i}.image`])
    }
  }
  return slots
}

/** Image-holding paths of one exported record, as [object, key] pairs. */
export function imageSlots(record: Record_): Array<[Record_, string]> {
  return imageSlotsWithPaths(record, '').map(([holder, key]) => [holder, key])
}
