// The feed's reads: public sections, and public products with a price that are not out of stock,
// a page at a time by id (keyset), each page with its gallery and characteristics read by the
// page's id range (an index range scan, no list of a thousand ids to parse and plan): the feed is
// written as it is read and never holds the catalogue (docs/decisions/029-price-list-and-feeds.md).
import type { Expression, ExpressionBuilder, Kysely, SelectQueryBuilder, SqlBool } from 'kysely'
import type { Availability, Database } from '../../data/schema'
import { isPublicRecord } from '../../content/visibility'
import { shownCharacteristics } from '../characteristics/characteristic-store'

export const FEED_PAGE = 2000
/** Товары reads at most 10 pictures of an offer */
export const MAX_PICTURES = 10

export interface FeedCategory {
  readonly id: number
  readonly parentId: number | null
  readonly title: string
}

export interface FeedOffer {
  readonly id: number
  readonly parentId: number
  readonly title: string
  readonly urlFull: string
  readonly updatedAt: string
  readonly price: number
  readonly oldPrice: number | null
  readonly availability: Availability
  readonly vendor: string | null
  readonly article: string | null
  readonly description: string | null
  readonly pictures: string[]
  readonly params: { name: string; value: string; unit: string | null }[]
  /** Its variants with a price, not out of stock, in order: each is an offer of its own (decision 043) */
  readonly variants: FeedVariant[]
}

export interface FeedVariant {
  readonly id: number
  readonly title: string
  readonly article: string | null
  readonly price: number
  readonly oldPrice: number | null
  readonly availability: Availability
  readonly image: string | null
  readonly params: { name: string; value: string; unit: string | null }[]
}

/** The home page's title (the shop's name in the feed unless YANDEX_FEED_NAME is set); '' without one. */
export async function loadHomeTitle(db: Kysely<Database>): Promise<string> {
  const home = await db
    .selectFrom('structure')
    .select('title')
    .where('urlFull', '=', '/')
    .where(isPublicRecord)
    .executeTakeFirst()
  return home?.title ?? ''
}

export async function loadFeedCategories(db: Kysely<Database>): Promise<FeedCategory[]> {
  return db
    .selectFrom('structure')
    .select(['id', 'parentId', 'title'])
    .where('typeId', '=', 'section')
    .where(isPublicRecord)
    .orderBy('id')
    .execute()
}

/** One page of offers after `afterId`, in id order, with their pictures (main first) and params. */
export async function loadFeedOffers(db: Kysely<Database>, afterId: number): Promise<FeedOffer[]> {
  const rows = await db
    .selectFrom('structure')
    .innerJoin('product', 'product.structureId', 'structure.id')
    .select([
      'structure.id',
      'structure.parentId',
      'structure.title',
      'structure.urlFull',
      'structure.updatedAt',
      'product.price',
      'product.oldPrice',
      'product.availability',
      'product.vendor',
      'product.article',
      'product.description',
      'product.image',
    ])
    .where('structure.typeId', '=', 'product')
    .where('structure.id', '>', afterId)
    // The same bound on the joined side: PostgreSQL's merge join then starts at the page, not at id 1.
    .where('product.structureId', '>', afterId)
    .where(isPublicRecord)
    .where('product.price', 'is not', null)
    .where('product.availability', '!=', 'out_of_stock')
    .orderBy('structure.id')
    .limit(FEED_PAGE)
    .execute()
  if (rows.length === 0) return []
  const lastId = rows[rows.length - 1].id
  // The page's id range holds its products, and maybe products the feed leaves out (skipped below).
  const inPage = <O>(query: SelectQueryBuilder<Database, 'productImage', O>) =>
    query
      .where('structureId', '>', afterId)
      .where('structureId', '<=', lastId)
      .orderBy('structureId')
      .orderBy('sort')
      .orderBy('id')
      .execute()
  const [images, properties, variants] = await Promise.all([
    inPage(db.selectFrom('productImage').select(['structureId', 'image'])),
    // In the stored order (the index's), with the owner's order of each characteristic (decision 042).
    db
      .selectFrom('productProperty')
      .leftJoin('characteristic', 'characteristic.id', 'productProperty.characteristicId')
      .select([
        'productProperty.structureId',
        'productProperty.name',
        'productProperty.value',
        'productProperty.unit',
        'productProperty.characteristicId',
        'productProperty.variantId',
        'characteristic.sort as ownerSort',
      ])
      .where('productProperty.structureId', '>', afterId)
      .where('productProperty.structureId', '<=', lastId)
      .orderBy('productProperty.structureId')
      .orderBy('productProperty.sort')
      .orderBy('productProperty.id')
      .execute(),
    db
      .selectFrom('productVariant')
      .select(['id', 'productId', 'title', 'article', 'price', 'oldPrice', 'availability', 'image'])
      .where('productId', '>', afterId)
      .where('productId', '<=', lastId)
      .where('price', 'is not', null)
      .where('availability', '!=', 'out_of_stock')
      .orderBy('productId')
      .orderBy('sort')
      .orderBy('id')
      .execute(),
  ])
  // The owner's name and unit of each; a hidden characteristic is not a <param> (decision 042).
  const characteristics = await shownCharacteristics(db)
  const offers = new Map<number, FeedOffer>()
  for (const { image, ...row } of rows) {
    offers.set(row.id, {
      ...row,
      parentId: row.parentId ?? 0,
      price: row.price!,
      pictures: [],
      params: [],
      variants: [],
    })
    if (image) offers.get(row.id)!.pictures.push(image)
  }
  // product.image mirrors the gallery's first picture: it leads, the rest of the gallery follows.
  for (const { structureId, image } of images) {
    const pictures = offers.get(structureId)?.pictures
    if (pictures && pictures.length < MAX_PICTURES && !pictures.includes(image)) pictures.push(image)
  }
  const byVariant = new Map<number, FeedVariant>()
  for (const { productId, price, ...variant } of variants) {
    const made = { ...variant, price: price!, params: [] }
    offers.get(productId)?.variants.push(made)
    byVariant.set(variant.id, made)
  }
  // A product's params in the owner's order first, then as stored (the sort is stable).
  properties.sort((a, b) => a.structureId - b.structureId || (a.ownerSort ?? 0) - (b.ownerSort ?? 0))
  for (const { structureId, characteristicId, name, value, unit, variantId } of properties) {
    const owner = characteristicId === null ? undefined : characteristics.get(characteristicId)
    if (owner?.shown === false) continue
    const param = owner ? { name: owner.title, value, unit: owner.unit } : { name, value, unit }
    // A variant's option is its offer's <param>, not the product's.
    if (variantId === null) offers.get(structureId)?.params.push(param)
    else byVariant.get(variantId)?.params.push(param)
  }
  return [...offers.values()]
}

/**
 * What Yandex Товары refuses an offer for: its rules (the yandex-ecom-search repository) require
 * a picture, a vendor and a description.
 */
export const REFUSAL_REASONS = ['vendor', 'picture', 'description'] as const
export type RefusalReason = (typeof REFUSAL_REASONS)[number]
/** Offers named per reason in «Выгрузки» */
export const REFUSAL_EXAMPLES = 5

export interface FeedRefusals {
  /** The offers the feed holds */
  readonly offers: number
  /** Per reason (an offer may have several): how many offers, and the first few by id */
  readonly reasons: readonly {
    readonly reason: RefusalReason
    readonly count: number
    readonly examples: readonly { readonly id: number; readonly title: string }[]
  }[]
}

/** The offers of the feed, as loadFeedOffers and the feed's categories choose them, in SQL. */
function feedOffers(db: Kysely<Database>) {
  return (
    db
      .selectFrom('structure')
      .innerJoin('product', 'product.structureId', 'structure.id')
      // categoryId must name a category of the feed: a public section (its products are public only under one).
      .innerJoin('structure as section', 'section.id', 'structure.parentId')
      .where('structure.typeId', '=', 'product')
      .where((eb) => isPublicRecord(eb, 'structure'))
      .where('section.typeId', '=', 'section')
      .where((eb) => isPublicRecord(eb, 'section'))
      .where('product.price', 'is not', null)
      .where('product.availability', '!=', 'out_of_stock')
  )
}

type OfferCondition = (
  eb: ExpressionBuilder<Database & { section: Database['structure'] }, 'structure' | 'product' | 'section'>,
) => Expression<SqlBool>

/** An offer without this field: blank text is none (the feed writes no empty element). */
const CONDITIONS: Readonly<Record<RefusalReason, OfferCondition>> = {
  vendor: (eb) => eb.or([eb('product.vendor', 'is', null), eb(eb.fn('trim', ['product.vendor']), '=', '')]),
  picture: (eb) =>
    eb.and([
      eb.or([eb('product.image', 'is', null), eb('product.image', '=', '')]),
      eb.not(
        eb.exists(
          eb
            .selectFrom('productImage')
            .select('productImage.id')
            .whereRef('productImage.structureId', '=', 'structure.id'),
        ),
      ),
    ]),
  description: (eb) =>
    eb.or([eb('product.description', 'is', null), eb(eb.fn('trim', ['product.description']), '=', '')]),
}

/**
 * What Yandex Товары would refuse of the feed: offers without a brand (none when the shop names a
 * default one), a picture or a description. One counting pass over the feed's offers and, per
 * reason that has any, its first few by id: the cost does not grow with what is shown.
 */
export async function loadFeedRefusals(db: Kysely<Database>, defaultVendor: string | null): Promise<FeedRefusals> {
  const reasons = REFUSAL_REASONS.filter((reason) => reason !== 'vendor' || defaultVendor === null)
  const counts = await feedOffers(db)
    .select((eb) => [
      eb.fn.countAll().as('offers'),
      ...reasons.map((reason) =>
        eb.fn.sum<number | string | null>(eb.case().when(CONDITIONS[reason](eb)).then(1).else(0).end()).as(reason),
      ),
    ])
    .executeTakeFirstOrThrow()
  const row = counts as Record<string, number | string | bigint | null>
  // A product with variants is an offer per variant with a price, not out of stock (decision 043).
  const variants = await feedOffers(db)
    .innerJoin('productVariant as variant', 'variant.productId', 'structure.id')
    .where('variant.price', 'is not', null)
    .where('variant.availability', '!=', 'out_of_stock')
    .select((eb) => [
      eb.fn.count('variant.id').as('offers'),
      eb.fn.count('variant.productId').distinct().as('products'),
    ])
    .executeTakeFirstOrThrow()
  return {
    offers: Number(row.offers ?? 0) + Number(variants.offers) - Number(variants.products),
    reasons: await Promise.all(
      REFUSAL_REASONS.map(async (reason) => {
        const count = reasons.includes(reason) ? Number(row[reason] ?? 0) : 0
        const examples =
          count === 0
            ? []
            : await feedOffers(db)
                .select(['structure.id', 'structure.title'])
                .where(CONDITIONS[reason])
                .orderBy('structure.id')
                .limit(REFUSAL_EXAMPLES)
                .execute()
        return { reason, count, examples }
      }),
    ),
  }
}
