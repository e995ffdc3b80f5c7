// Forward-only: a released migration is never edited, a new file follows it.
// A shop's catalogue (issue 22, decision 025): a product gains its brand, its availability, an old
// price, a place among the home page's featured products, an ordered gallery and an ordered list of
// characteristics. The gallery's first image is the main one; `product.image` keeps a copy of it, so
// cards, og:image and the feed read one column (the write path keeps the two in step).
import type { Kysely } from 'kysely'
import { idColumn } from '../sql/dialect'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('product').addColumn('vendor', 'varchar(200)').execute()
  // 'in_stock' | 'on_order' | 'out_of_stock' (JSON-LD InStock / BackOrder / OutOfStock)
  await db.schema
    .alterTable('product')
    .addColumn('availability', 'varchar(16)', (c) => c.notNull().defaultTo('in_stock'))
    .execute()
  // Whole rubles; shown struck through only while greater than the price
  await db.schema.alterTable('product').addColumn('oldPrice', 'integer').execute()
  // 0 or 1: shown on the home page (a bounded selection, whatever the catalogue's size)
  await db.schema
    .alterTable('product')
    .addColumn('featured', 'integer', (c) => c.notNull().defaultTo(0))
    .execute()
  await db.schema.createIndex('product_article').on('product').column('article').execute()
  await db.schema.createIndex('product_price').on('product').column('price').execute()
  await db.schema.createIndex('product_featured').on('product').column('featured').execute()

  await db.schema
    .createTable('productImage')
    .$call(idColumn(db))
    .addColumn('structureId', 'integer', (c) => c.notNull().references('structure.id').onDelete('cascade'))
    .addColumn('image', 'varchar(1000)', (c) => c.notNull())
    .addColumn('alt', 'varchar(500)')
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .execute()
  await db.schema.createIndex('product_image_structure').on('productImage').columns(['structureId', 'sort']).execute()

  await db.schema
    .createTable('productProperty')
    .$call(idColumn(db))
    .addColumn('structureId', 'integer', (c) => c.notNull().references('structure.id').onDelete('cascade'))
    // The table's optional group heading («Габариты»)
    .addColumn('groupName', 'varchar(200)')
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    .addColumn('value', 'varchar(1000)', (c) => c.notNull())
    .addColumn('unit', 'varchar(50)')
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .execute()
  await db.schema
    .createIndex('product_property_structure')
    .on('productProperty')
    .columns(['structureId', 'sort'])
    .execute()

  // Today's single image becomes the first picture of each product's gallery.
  const products = await db
    .selectFrom('product')
    .select(['structureId', 'image'])
    .where('image', 'is not', null)
    .execute()
  for (const { structureId, image } of products) {
    await db.insertInto('productImage').values({ structureId, image, sort: 0 }).execute()
  }
}
