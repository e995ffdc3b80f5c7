// Forward-only: a released migration is never edited, a new file follows it.
// A variant's option rows found by an index of those rows alone (issue 43). `productProperty`'s
// index on `variantId` held every row, and nearly all of them are a product's own characteristics
// (variantId null). SQLite, which keeps no statistics unless asked, then read a product's
// characteristics (`structureId IN (…) AND variantId IS NULL`) through that index: every such row
// of the catalogue per statement. At 110,000 products an import step that compared characteristics
// took minutes (the same 1C file sent again: over 20 minutes instead of about two). Indexed only
// where it is set, the index cannot serve `IS NULL`; `variantId = ?` (a variant's options, the
// cascade from a deleted variant) still uses it, on either database, and it is a row per option.
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('product_property_variant').execute()
  await db.schema
    .createIndex('product_property_variant')
    .on('productProperty')
    .column('variantId')
    .where(sql.ref('variantId'), 'is not', null)
    .execute()
}
