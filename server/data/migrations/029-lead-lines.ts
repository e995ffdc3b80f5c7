// Forward-only: a released migration is never edited, a new file follows it.
// What a lead asked for, as it was (issue 44, item 3; docs/decisions/041-request-list.md): one row
// per line with the product's id, title, артикул, unit price (kopecks) and line sum copied at the
// moment the lead was stored, and the lead's total. No foreign key to the product: a later rename,
// price change or deletion of the product never changes a sent lead.
import type { Kysely } from 'kysely'
import { idColumn } from '../sql/dialect'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('leadLine')
    .$call(idColumn(db))
    .addColumn('feedbackId', 'integer', (c) => c.notNull().references('feedback.id').onDelete('cascade'))
    // The line's place in the list, from 0
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('productId', 'integer', (c) => c.notNull())
    .addColumn('title', 'varchar(500)', (c) => c.notNull())
    .addColumn('article', 'varchar(200)')
    // Whole kopecks at the moment of sending; null: «по запросу»
    .addColumn('price', 'bigint')
    .addColumn('quantity', 'integer', (c) => c.notNull())
    // price × quantity; null when the price is
    .addColumn('sum', 'bigint')
    .execute()
  await db.schema.createIndex('lead_line_lead').on('leadLine').columns(['feedbackId', 'position']).execute()
  // The sum of the lines when every line has a price, else null (as is a lead without lines)
  await db.schema.alterTable('feedback').addColumn('total', 'bigint').execute()
}
