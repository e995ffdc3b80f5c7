// Forward-only: a released migration is never edited, a new file follows it.
// IndexNow (issue 23, docs/decisions/029-price-list-and-feeds.md): an outbox of public URLs that
// changed, written in the write's own transaction and sent in batches by a worker in any process
// that holds a lease on the rows; and the site's settings that are not environment variables (the
// IndexNow key the site generated for itself).
import type { Kysely } from 'kysely'
import { idColumn } from '../sql/dialect'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('indexNowUrl')
    .$call(idColumn(db))
    // An absolute URL of the site: a product, its section, the home page
    .addColumn('url', 'varchar(2000)', (c) => c.notNull())
    // 'pending' | 'sent' | 'dead'
    .addColumn('status', 'varchar(20)', (c) => c.notNull().defaultTo('pending'))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('nextAttemptAt', 'varchar(40)', (c) => c.notNull())
    .addColumn('leaseUntil', 'varchar(40)')
    .addColumn('lastError', 'varchar(500)')
    .addColumn('sentAt', 'varchar(40)')
    .addColumn('createdAt', 'varchar(40)', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('index_now_url_due').on('indexNowUrl').columns(['status', 'nextAttemptAt']).execute()
  await db.schema.createIndex('index_now_url_url').on('indexNowUrl').columns(['url', 'status']).execute()

  await db.schema
    .createTable('siteSetting')
    .addColumn('name', 'varchar(100)', (c) => c.primaryKey())
    .addColumn('value', 'varchar(2000)', (c) => c.notNull())
    .execute()
}
