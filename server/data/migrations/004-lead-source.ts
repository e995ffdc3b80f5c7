// Forward-only: a released migration is never edited, a new file follows it.
// Where a lead came from (the page, the product, the visit's UTM tags) and where the owner is
// with it (new, in progress, closed), as columns of the lead itself.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  // One column per statement: SQLite's ALTER TABLE adds a single column at a time.
  await db.schema.alterTable('feedback').addColumn('sourceUrl', 'varchar(2000)').execute()
  await db.schema.alterTable('feedback').addColumn('productId', 'integer').execute()
  await db.schema.alterTable('feedback').addColumn('productTitle', 'varchar(500)').execute()
  // JSON object of utm_source, utm_medium, utm_campaign, utm_term, utm_content, yclid, gclid
  await db.schema.alterTable('feedback').addColumn('utm', 'text').execute()
  await db.schema
    .alterTable('feedback')
    .addColumn('status', 'varchar(20)', (c) => c.notNull().defaultTo('new'))
    .execute()
  await db.schema.createIndex('feedback_status').on('feedback').columns(['status', 'createdAt']).execute()
}
