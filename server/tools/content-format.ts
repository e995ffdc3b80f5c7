// The content export's format, shared by the export (content.ts) and the import (content-import.ts).

export const EXPORT_FORMAT = 'vitrina-content'

export type Record_ = Record<string, unknown>

export interface ContentExport {
  readonly format: typeof EXPORT_FORMAT
  readonly version: 1
  readonly exportedAt: string
  readonly structure: Record_[]
  readonly orderType: Record_[]
  /** Media path → the file, base64 */
  readonly images: Record<string, { readonly contentType: string; readonly base64: string }>
}

/** The lists of a record, each written in its order (the export's `sort` is that order). */
export const LISTS = ['sliderItems', 'advantages', 'images', 'properties'] as const

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
