// The public models of the generic data API (docs/contract.md §3): a hard-coded allowlist that maps each
// model name to its table, its public fields, its relations and who may read it. A name resolves
// only by exact match in a Map: `Feedback`, `feedback%00`, `sqlite_master` or a table name such as
// `siteIndex` are simply not models. Columns outside the lists (the lead table's consent and spam
// data, say) are never read, because every query selects explicit columns from these lists.
import { isPublicRecord } from '../content/visibility'
import type { ModelDef } from '../models/model-def'
import { LEAD_LINE_MODEL, LEAD_MODEL } from '../leads/store/lead-model'
import { CATALOGUE_MODELS, CATALOGUE_RELATIONS } from '../catalogue/products/product-models'
import { VARIANT_MODELS, VARIANTS_RELATION } from '../catalogue/products/variant-models'
import {
  BY_SORT,
  fields,
  int,
  nullableMediaPath,
  nullableStr,
  nullableText,
  ownerId,
  pictureListModel,
  publicOwner,
  relations,
  str,
  toStructure,
} from '../models/model-fields'

export type { FieldDef, ModelDef, RelationDef } from '../models/model-def'

/**
 * A record's address is a path on this site: one leading `/` and never `//` (a browser reads
 * `//host/x` as another site, and cards and the sitemap would link there), no backslash (browsers
 * read `/\\host` as `//host`), no `.` or `..` segment, no space, `?` or `#`. Control characters
 * and line breaks are the single-line check's to refuse, in its own words (str()). A scheme cannot
 * pass either, since the path starts with `/`.
 */
export const SITE_PATH_PATTERN = '^(?!//)(?!(?:.*/)?\\.\\.?(?:/|$))/[^\\p{Zs}?#\\\\]*$'

/** What the owner reads when an address is not a path on this site. */
export const SITE_PATH_MESSAGE =
  'Адрес — путь на этом сайте: начинается с одной «/», без «//», «\\», «.» и «..» между «/», пробелов, «?» и «#»'

/** The model a structure part's relation leads to. */
export function partModel(part: StructurePart): ModelDef {
  return findModel(findModel('structure')!.relations.get(part)!.model)!
}

const MODELS: ReadonlyMap<string, ModelDef> = new Map<string, ModelDef>([
  [
    'structure',
    {
      name: 'structure',
      table: 'structure',
      key: 'id',
      fields: fields({
        id: { type: 'integer', nullable: false },
        parentId: { type: 'integer', nullable: true, write: { type: ['integer', 'null'], minimum: 1 } },
        typeId: {
          type: 'string',
          nullable: false,
          required: true,
          write: { type: 'string', enum: ['index', 'section', 'product', 'page'] },
        },
        title: {
          type: 'string',
          nullable: false,
          required: true,
          write: { ...str(500), minLength: 1 },
        },
        urlFull: {
          type: 'string',
          nullable: false,
          required: true,
          write: { ...str(1000), minLength: 1, pattern: SITE_PATH_PATTERN },
        },
        sort: { type: 'integer', nullable: false, write: int },
        published: { type: 'boolean', nullable: false, write: { type: 'boolean' } },
        status: { type: 'integer', nullable: true, write: { type: ['integer', 'null'], enum: [null, 200, 404, 410] } },
        content: { type: 'string', nullable: true, write: nullableText(100_000) },
        metaTitle: { type: 'string', nullable: true, write: nullableStr(500) },
        metaDescription: { type: 'string', nullable: true, write: nullableText(5000) },
        metaImage: { type: 'string', nullable: true, image: true, write: nullableMediaPath },
        metaRobots: { type: 'string', nullable: true, write: nullableStr(200) },
        metaJsonLd: { type: 'string', nullable: true, write: nullableText(20_000) },
        createdAt: { type: 'string', nullable: false },
        updatedAt: { type: 'string', nullable: false },
      }),
      relations: relations([
        {
          name: 'children',
          model: 'structure',
          kind: 'many',
          localKey: 'id',
          foreignKey: 'parentId',
          defaultOrder: BY_SORT,
        },
        { name: 'parent', model: 'structure', kind: 'one', localKey: 'parentId', foreignKey: 'id' },
        { name: 'index', model: 'index', kind: 'one', localKey: 'id', foreignKey: 'structureId' },
        { name: 'product', model: 'product', kind: 'one', localKey: 'id', foreignKey: 'structureId' },
        {
          name: 'sliderItems',
          model: 'sliderItems',
          kind: 'many',
          localKey: 'id',
          foreignKey: 'structureId',
          defaultOrder: BY_SORT,
        },
        {
          name: 'advantages',
          model: 'advantages',
          kind: 'many',
          localKey: 'id',
          foreignKey: 'structureId',
          defaultOrder: BY_SORT,
        },
        ...CATALOGUE_RELATIONS,
        VARIANTS_RELATION,
      ]),
      defaultSelect: ['id', 'parentId', 'typeId', 'title', 'urlFull', 'sort'],
      providerTitle: 'title',
      adminOnly: false,
      publicScope: (eb) => isPublicRecord(eb),
      writable: true,
    },
  ],
  [
    'index',
    {
      name: 'index',
      table: 'siteIndex',
      key: 'structureId',
      fields: fields({
        structureId: ownerId,
        logo: { type: 'string', nullable: true, image: true, write: nullableMediaPath },
        tel: { type: 'string', nullable: true, write: nullableStr(100) },
        telText: { type: 'string', nullable: true, write: nullableStr(200) },
        description: { type: 'string', nullable: true, write: nullableText(5000) },
        copyright: { type: 'string', nullable: true, write: nullableStr(500) },
      }),
      relations: toStructure,
      defaultSelect: ['structureId', 'logo', 'tel', 'telText', 'description', 'copyright'],
      providerTitle: 'tel',
      adminOnly: false,
      publicScope: publicOwner,
      writable: true,
    },
  ],
  ...CATALOGUE_MODELS,
  ...VARIANT_MODELS,
  ['sliderItems', pictureListModel('sliderItems', 'sliderItem', 'title', true)],
  [
    'advantages',
    {
      name: 'advantages',
      table: 'advantage',
      key: 'id',
      fields: fields({
        id: { type: 'integer', nullable: false },
        structureId: ownerId,
        image: { type: 'string', nullable: true, image: true, write: nullableMediaPath },
        title: {
          type: 'string',
          nullable: false,
          required: true,
          write: { ...str(500), minLength: 1 },
        },
        description: { type: 'string', nullable: true, write: nullableText(5000) },
        sort: { type: 'integer', nullable: false, write: int },
      }),
      relations: toStructure,
      defaultSelect: ['id', 'structureId', 'image', 'title', 'description', 'sort'],
      providerTitle: 'title',
      adminOnly: false,
      publicScope: publicOwner,
      writable: true,
    },
  ],
  [
    'orderType',
    {
      name: 'orderType',
      table: 'orderType',
      key: 'id',
      fields: fields({
        id: { type: 'integer', nullable: false },
        type: {
          type: 'string',
          nullable: false,
          required: true,
          write: { ...str(64), minLength: 1, pattern: '^[A-Za-z0-9_-]+$' },
        },
        title: { type: 'string', nullable: false, required: true, write: { ...str(500), minLength: 1 } },
      }),
      relations: relations([]),
      defaultSelect: ['id', 'type', 'title'],
      providerTitle: 'title',
      adminOnly: false,
      writable: true,
    },
  ],
  // The leads: defined by their repository, read here for the admin only.
  [LEAD_MODEL.name, LEAD_MODEL],
  [LEAD_LINE_MODEL.name, LEAD_LINE_MODEL],
])

/** The model with exactly this name, or undefined. Never a table name, never case-folded. */
export function findModel(name: string): ModelDef | undefined {
  return MODELS.get(name)
}

/** Every table column that holds a stored media path, with the column naming its row's record. */
export function imageColumns(): Array<{ table: string; column: string; owner: string }> {
  return [...MODELS.values()].flatMap((model) => {
    const owner = model.name === 'structure' ? 'id' : (model.owner ?? 'structureId')
    return [...model.fields]
      .filter(([, field]) => field.image)
      .map(([column]) => ({ table: model.table, column, owner }))
  })
}

/**
 * The structure record's one-to-one parts and lists that a structure write may carry, by relation
 * name (the relation names the model: `images` → productImages, `variants` → productVariants).
 */
export const STRUCTURE_PARTS = [
  'index',
  'product',
  'sliderItems',
  'advantages',
  'images',
  'properties',
  'variants',
] as const
export type StructurePart = (typeof STRUCTURE_PARTS)[number]
