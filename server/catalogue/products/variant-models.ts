// A product's variants in the model API (docs/decisions/043-variants.md, "In the content export"):
// read as the structure record's list `variants`, each with its option values (`options`), public
// while their product is; written only with their record, as the whole list of a structure write
// (`variants`: model-api/write-variants.ts hands it to the variant repository, variant-rows.ts, so
// the product's price, old price and availability follow them as after any other writer). Prices
// are rubles with at most two decimals, kopecks in the database, as the product's are.
import type { ExpressionBuilder, Kysely } from 'kysely'
import { isPublicRecord } from '../../content/visibility'
import type { ModelDef } from '../../models/model-def'
import { BY_SORT, fields, nullableMediaPath, nullableStr, publicOwner, relations, str } from '../../models/model-fields'
import { AVAILABILITY, PRICE_WRITE } from './product-models'

/** At most this many variants a product has in one write, and option values a variant */
export const VARIANT_LIMITS = Object.freeze({ variants: 1000, options: 20 })

/** Variants of a record that is public (the product's record: the variant's own key is productId). */
const publicProduct = (eb: ExpressionBuilder<any, any>, db: Kysely<any>) =>
  eb('productId', 'in', db.selectFrom('structure').select('id').where(isPublicRecord))

export const VARIANT_MODELS: ReadonlyArray<readonly [string, ModelDef]> = [
  [
    'productVariants',
    {
      name: 'productVariants',
      table: 'productVariant',
      key: 'id',
      owner: 'productId',
      fields: fields({
        id: { type: 'integer', nullable: false },
        productId: { type: 'integer', nullable: false },
        title: { type: 'string', nullable: false, required: true, write: { ...str(250), minLength: 1 } },
        article: { type: 'string', nullable: true, write: nullableStr(100) },
        price: { type: 'money', nullable: true, write: PRICE_WRITE },
        // Above the price and only with one (write-variants.ts, as the editor says it).
        oldPrice: { type: 'money', nullable: true, write: { ...PRICE_WRITE, exclusiveMinimum: 0 } },
        availability: { type: 'string', nullable: false, write: { type: 'string', enum: [...AVAILABILITY] } },
        image: { type: 'string', nullable: true, image: true, write: nullableMediaPath },
        // Its place: the order of the list written.
        sort: { type: 'integer', nullable: false },
      }),
      relations: relations([
        { name: 'structure', model: 'structure', kind: 'one', localKey: 'productId', foreignKey: 'id' },
        {
          name: 'options',
          model: 'variantOptions',
          kind: 'many',
          localKey: 'id',
          foreignKey: 'variantId',
          defaultOrder: BY_SORT,
          maxItems: VARIANT_LIMITS.options,
          written: true,
        },
      ]),
      defaultSelect: ['id', 'productId', 'title', 'article', 'price', 'oldPrice', 'availability', 'image', 'sort'],
      providerTitle: 'title',
      adminOnly: false,
      publicScope: publicProduct,
      writable: false,
    },
  ],
  [
    'variantOptions',
    {
      name: 'variantOptions',
      // A variant's option values are characteristics rows of its product that name it (decision 043).
      table: 'productProperty',
      key: 'id',
      fields: fields({
        id: { type: 'integer', nullable: false },
        variantId: { type: 'integer', nullable: false },
        name: { type: 'string', nullable: false, required: true, write: { ...str(200), minLength: 1 } },
        // As long as a stored value may be (1C's and the price list's, past the editor's 500).
        value: { type: 'string', nullable: false, required: true, write: { ...str(1000), minLength: 1 } },
        unit: { type: 'string', nullable: true, write: nullableStr(50) },
        sort: { type: 'integer', nullable: false },
      }),
      relations: relations([
        { name: 'variant', model: 'productVariants', kind: 'one', localKey: 'variantId', foreignKey: 'id' },
      ]),
      defaultSelect: ['id', 'variantId', 'name', 'value', 'unit', 'sort'],
      providerTitle: 'name',
      adminOnly: false,
      scope: (eb) => eb('variantId', 'is not', null),
      publicScope: publicOwner,
      writable: false,
    },
  ],
]

/** The structure model's relation to its product's variants (the part a structure write may carry). */
export const VARIANTS_RELATION = {
  name: 'variants',
  model: 'productVariants',
  kind: 'many',
  localKey: 'id',
  foreignKey: 'productId',
  defaultOrder: BY_SORT,
  maxItems: VARIANT_LIMITS.variants,
} as const
