// The catalogue's public models (decision 025): a product's one-to-one part, its gallery and its
// characteristics (its variants are variant-models.ts'). The gallery and the characteristics are
// written only as parts of their structure record (`images`, `properties`: the list replaces the old
// one in the record's transaction), so the main-image rule (product.image = the gallery's first) has
// one way in: writes.ts.
import { MAX_PRICE_RUBLES } from '../../../src/format/money'
import { KOPECKS_KEYWORD } from '../../../src/validation/create-ajv'
import type { ModelDef } from '../../models/model-def'
import {
  BY_SORT,
  fields,
  int,
  nullableMediaPath,
  nullableStr,
  ownerId,
  pictureListModel,
  publicOwner,
  str,
  toStructure,
} from '../../models/model-fields'

/** The stored values of product.availability, in the order the back office offers them. */
export const AVAILABILITY = ['in_stock', 'on_order', 'out_of_stock'] as const

/** At most this many pictures in one product's gallery and rows in its characteristics. */
export const CATALOGUE_LIMITS = Object.freeze({ images: 30, properties: 200 })

/** Rubles with at most two decimals in the API; kopecks in the database (src/format/money.ts). */
export const PRICE_WRITE = { type: ['number', 'null'], minimum: 0, maximum: MAX_PRICE_RUBLES, [KOPECKS_KEYWORD]: true }

export const CATALOGUE_MODELS: ReadonlyArray<readonly [string, ModelDef]> = [
  [
    'product',
    {
      name: 'product',
      table: 'product',
      key: 'structureId',
      fields: fields({
        structureId: ownerId,
        // The gallery's first image, kept in step by the write path (a write of it alone sets the first).
        image: { type: 'string', nullable: true, image: true, write: nullableMediaPath },
        article: { type: 'string', nullable: true, write: nullableStr(100) },
        price: { type: 'money', nullable: true, write: PRICE_WRITE },
        // Greater than the price, and only with one (checked in writes.ts against the stored row).
        oldPrice: { type: 'money', nullable: true, write: { ...PRICE_WRITE, exclusiveMinimum: 0 } },
        vendor: { type: 'string', nullable: true, write: nullableStr(200) },
        availability: { type: 'string', nullable: false, write: { type: 'string', enum: [...AVAILABILITY] } },
        featured: { type: 'boolean', nullable: false, write: { type: 'boolean' } },
        description: {
          type: 'string',
          nullable: true,
          write: { type: ['string', 'null'], maxLength: 20_000, text: 'multi-line' },
        },
      }),
      relations: toStructure,
      defaultSelect: ['structureId', 'image', 'article', 'price'],
      providerTitle: 'article',
      adminOnly: false,
      publicScope: publicOwner,
      writable: true,
    },
  ],
  ['productImages', pictureListModel('productImages', 'productImage', 'alt', false)],
  [
    'productProperties',
    {
      name: 'productProperties',
      table: 'productProperty',
      key: 'id',
      fields: fields({
        id: { type: 'integer', nullable: false },
        structureId: ownerId,
        groupName: { type: 'string', nullable: true, write: nullableStr(200) },
        name: { type: 'string', nullable: false, required: true, write: { ...str(200), minLength: 1 } },
        value: { type: 'string', nullable: false, required: true, write: { ...str(1000), minLength: 1 } },
        unit: { type: 'string', nullable: true, write: nullableStr(50) },
        sort: { type: 'integer', nullable: false, write: int },
      }),
      relations: toStructure,
      defaultSelect: ['id', 'structureId', 'groupName', 'name', 'value', 'unit', 'sort'],
      providerTitle: 'name',
      adminOnly: false,
      // A variant's option values are its variant's (variant-models.ts), not the product's own rows.
      scope: (eb) => eb('variantId', 'is', null),
      publicScope: publicOwner,
      writable: false,
    },
  ],
]

/** The structure model's relations to the catalogue's lists (the parts a structure write may carry). */
export const CATALOGUE_RELATIONS = [
  {
    name: 'images',
    model: 'productImages',
    kind: 'many',
    localKey: 'id',
    foreignKey: 'structureId',
    defaultOrder: BY_SORT,
    maxItems: CATALOGUE_LIMITS.images,
  },
  {
    name: 'properties',
    model: 'productProperties',
    kind: 'many',
    localKey: 'id',
    foreignKey: 'structureId',
    defaultOrder: BY_SORT,
    maxItems: CATALOGUE_LIMITS.properties,
  },
] as const
