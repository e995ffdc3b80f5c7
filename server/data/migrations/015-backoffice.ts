// Forward-only: a released migration is never edited, a new file follows it.
// The back office at scale (issue 27, decision 028): a record moved to another section with a new
// URL leaves its old URL behind as a permanent redirect to the record (by id, so a later move or
// rename is followed), and the inbox pages a tab of 100,000 leads newest first by an index.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('movedUrl')
    // The URL the record had before it moved
    .addColumn('urlFull', 'varchar(1000)', (c) => c.primaryKey())
    .addColumn('structureId', 'integer', (c) => c.notNull().references('structure.id').onDelete('cascade'))
    // ISO 8601 UTC
    .addColumn('movedAt', 'varchar(40)', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('moved_url_structure').on('movedUrl').column('structureId').execute()
  // A tab of the inbox (spam, status) newest first, paged by (createdAt, id)
  await db.schema.createIndex('feedback_tab').on('feedback').columns(['spam', 'status', 'createdAt', 'id']).execute()
}
