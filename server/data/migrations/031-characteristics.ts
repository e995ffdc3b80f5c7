// Forward-only: a released migration is never edited, a new file follows it.
// Characteristics the owner manages and filters by them (issue 46, docs/decisions/042-characteristics-and-filters.md).
// `characteristic`: one row per name and unit products carry (productProperty.name, .unit; '' for
// no unit), with the owner's choices: the name and unit the site shows, shown or not, a filter or
// not, the order. productProperty gains the row's characteristic and the number its value holds
// (for ranges), both written by the product-row repository, and an index a section's filters and
// counts read: a product's value of a characteristic, by characteristic then product.
import { sql, type Kysely } from 'kysely'
import { idColumn } from '../sql/dialect'
import { numericValue } from '../../../src/catalogue/characteristics'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('characteristic')
    .$call(idColumn(db))
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    .addColumn('unit', 'varchar(50)', (c) => c.notNull().defaultTo(''))
    .addColumn('title', 'varchar(200)', (c) => c.notNull())
    .addColumn('shownUnit', 'varchar(50)', (c) => c.notNull().defaultTo(''))
    .addColumn('shown', 'integer', (c) => c.notNull().defaultTo(1))
    // none | values | range
    .addColumn('filter', 'varchar(10)', (c) => c.notNull().defaultTo('none'))
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .execute()
  await db.schema.createIndex('characteristic_key').on('characteristic').columns(['name', 'unit']).unique().execute()
  await db.schema
    .alterTable('productProperty')
    .addColumn('characteristicId', 'integer', (c) => c.references('characteristic.id'))
    .execute()
  await db.schema.alterTable('productProperty').addColumn('numValue', 'double precision').execute()

  await sql`INSERT INTO "characteristic" ("name", "unit", "title", "shownUnit")
    SELECT DISTINCT "name", COALESCE("unit", ''), "name", COALESCE("unit", '') FROM "productProperty"`.execute(db)
  await sql`UPDATE "productProperty" SET "characteristicId" = (SELECT "c"."id" FROM "characteristic" AS "c"
    WHERE "c"."name" = "productProperty"."name" AND "c"."unit" = COALESCE("productProperty"."unit", ''))`.execute(db)
  // The numbers, a batch of rows at a time by id; only the rows whose value is one are written.
  let after = 0
  for (;;) {
    const rows = await db
      .selectFrom('productProperty')
      .select(['id', 'value'])
      .where('id', '>', after)
      .orderBy('id')
      .limit(5000)
      .execute()
    if (rows.length === 0) break
    after = rows[rows.length - 1].id
    for (const row of rows) {
      const n = numericValue(row.value)
      if (n !== null) await db.updateTable('productProperty').set({ numValue: n }).where('id', '=', row.id).execute()
    }
  }
  await db.schema
    .createIndex('product_property_facet')
    .on('productProperty')
    .columns(['characteristicId', 'structureId', 'value', 'numValue'])
    .execute()
}
