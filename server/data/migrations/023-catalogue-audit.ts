// Forward-only: a released migration is never edited, a new file follows it.
// The catalogue's audit log (issue 33): each action of «Товары» on a selection of products, once,
// with who, what and how many (the screen sends a large action in batches; they add to one entry).
import type { Kysely } from 'kysely'
import { idColumn } from '../sql/dialect'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('catalogueAudit')
    .$call(idColumn(db))
    // The screen's id of one action, however many batches it takes
    .addColumn('operation', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('at', 'varchar(40)', (c) => c.notNull())
    .addColumn('lastAt', 'varchar(40)', (c) => c.notNull())
    // 'сессия' (the back office) or 'токен' (the API)
    .addColumn('who', 'varchar(100)', (c) => c.notNull())
    .addColumn('action', 'varchar(500)', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('catalogue_audit_at').on('catalogueAudit').column('at').execute()
}
