// The building blocks of the registry's models (registry.ts, catalogue/products/product-models.ts): JSON Schemas of
// stored values, and the rule that a structure record's parts are public only while it is.
import type { ExpressionBuilder, Kysely } from 'kysely'
import { isPublicRecord } from '../content/visibility'
import type { FieldDef, ModelDef, RelationDef } from './model-def'

// Every stored text is one line without control characters, or a text whose only control
// characters are line breaks and tabs (the `text` keyword: src/validation/plain-text.ts).
export const str = (max: number) => ({ type: 'string', maxLength: max, text: 'single-line' })
export const nullableStr = (max: number) => ({ type: ['string', 'null'], maxLength: max, text: 'single-line' })
export const nullableText = (max: number) => ({ type: ['string', 'null'], maxLength: max, text: 'multi-line' })
export const int = { type: 'integer', minimum: -2147483648, maximum: 2147483647 }
/** A stored media path; a file sent in the same write is turned into one before validation. */
const MEDIA_PATH_PATTERN = '^(uploads|demo)/[A-Za-z0-9][A-Za-z0-9._-]{0,199}$'
export const mediaPath = { type: 'string', pattern: MEDIA_PATH_PATTERN }
export const nullableMediaPath = { type: ['string', 'null'], pattern: MEDIA_PATH_PATTERN }

export function fields(entries: Record<string, FieldDef>): ReadonlyMap<string, FieldDef> {
  return new Map(Object.entries(entries))
}

export function relations(list: RelationDef[]): ReadonlyMap<string, RelationDef> {
  return new Map(list.map((r) => [r.name, r]))
}

/** Parts of a structure record are public only while the record itself is (content/visibility.ts). */
export const publicOwner = (eb: ExpressionBuilder<any, any>, db: Kysely<any>) =>
  eb('structureId', 'in', db.selectFrom('structure').select('id').where(isPublicRecord))

export const BY_SORT = [
  ['sort', 'asc'],
  ['id', 'asc'],
] as const

/** The structure record a part or a list row belongs to: written as its id, read back as `structure` */
export const ownerId = {
  type: 'integer',
  nullable: false,
  required: true,
  write: { type: 'integer', minimum: 1 },
} as const
export const toStructure = relations([
  { name: 'structure', model: 'structure', kind: 'one', localKey: 'structureId', foreignKey: 'id' },
])

/**
 * A captioned picture list under a structure record, in order (the home slider, a product's
 * gallery): the picture is required, its caption (`title` or `alt`) optional.
 */
export function pictureListModel(name: string, table: string, caption: 'title' | 'alt', writable: boolean): ModelDef {
  return {
    name,
    table,
    key: 'id',
    fields: fields({
      id: { type: 'integer', nullable: false },
      structureId: ownerId,
      image: { type: 'string', nullable: false, required: true, image: true, write: mediaPath },
      [caption]: { type: 'string', nullable: true, write: nullableStr(500) },
      sort: { type: 'integer', nullable: false, write: int },
    }),
    relations: toStructure,
    defaultSelect: ['id', 'structureId', 'image', caption, 'sort'],
    providerTitle: caption,
    adminOnly: false,
    publicScope: publicOwner,
    writable,
  }
}
