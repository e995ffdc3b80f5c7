// Forward-only: a released migration is never edited, a new file follows it.
// Variants on one page (issue 46, item 3; docs/decisions/043-variants.md): `productVariant`, one row
// per variant of a product (1C's characteristic, a price list's row of a model), with its own
// артикул, prices (whole kopecks; bigint on PostgreSQL as in migration 028), availability and
// picture. Its option values (colour, size) are `productProperty` rows of the product naming the
// variant (`variantId`), so a section's filter finds the product by a value a variant has.
import type { Kysely } from 'kysely'
import { idColumn } from '../sql/dialect'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('productVariant')
    .$call(idColumn(db))
    .addColumn('productId', 'integer', (c) => c.notNull().references('product.structureId').onDelete('cascade'))
    // 1C's characteristic Ид (the part of the offer's Ид after `#`); null for the site's own
    .addColumn('externalId', 'varchar(200)')
    .addColumn('title', 'varchar(250)', (c) => c.notNull())
    .addColumn('article', 'varchar(100)')
    .addColumn('price', 'bigint')
    .addColumn('oldPrice', 'bigint')
    .addColumn('availability', 'varchar(20)', (c) => c.notNull().defaultTo('in_stock'))
    .addColumn('image', 'varchar(500)')
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .execute()
  await db.schema.createIndex('product_variant_product').on('productVariant').columns(['productId', 'sort']).execute()
  await db.schema.createIndex('product_variant_article').on('productVariant').column('article').execute()
  await db.schema
    .alterTable('productProperty')
    .addColumn('variantId', 'integer', (c) => c.references('productVariant.id').onDelete('cascade'))
    .execute()
  await db.schema.createIndex('product_property_variant').on('productProperty').column('variantId').execute()
  // The line of a lead names the variant it asked for (null: the product itself)
  await db.schema.alterTable('leadLine').addColumn('variantId', 'integer').execute()
  await db.schema.alterTable('leadLine').addColumn('variantTitle', 'varchar(250)').execute()
}
