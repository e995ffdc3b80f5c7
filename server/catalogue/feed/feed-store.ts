// The feed's reads: public sections, and public products with a price that are not out of stock,
// a page at a time by id (keyset), each page with its gallery and characteristics read by the
// page's id range (an index range scan, no list of a thousand ids to parse and plan): the feed is
// written as it is read and never holds the catalogue (docs/decisions/029-price-list-and-feeds.md).
import type { Kysely, SelectQueryBuilder } from 'kysely'
import type { Availability, Database } from '../../data/schema'
import { isPublicRecord } from '../../content/visibility'

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
  const inPage = <O>(query: SelectQueryBuilder<Database, 'productImage' | 'productProperty', O>) =>
    query
      .where('structureId', '>', afterId)
      .where('structureId', '<=', lastId)
      .orderBy('structureId')
      .orderBy('sort')
      .orderBy('id')
      .execute()
  const [images, properties] = await Promise.all([
    inPage(db.selectFrom('productImage').select(['structureId', 'image'])),
    inPage(db.selectFrom('productProperty').select(['structureId', 'name', 'value', 'unit'])),
  ])
  const offers = new Map<number, FeedOffer>()
  for (const { image, ...row } of rows) {
    offers.set(row.id, { ...row, parentId: row.parentId ?? 0, price: row.price!, pictures: [], params: [] })
    if (image) offers.get(row.id)!.pictures.push(image)
  }
  // product.image mirrors the gallery's first picture: it leads, the rest of the gallery follows.
  for (const { structureId, image } of images) {
    const pictures = offers.get(structureId)?.pictures
    if (pictures && pictures.length < MAX_PICTURES && !pictures.includes(image)) pictures.push(image)
  }
  for (const { structureId, ...param } of properties) offers.get(structureId)?.params.push(param)
  return [...offers.values()]
}
