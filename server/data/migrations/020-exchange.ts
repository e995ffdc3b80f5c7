// Forward-only: a released migration is never edited, a new file follows it.
// The 1C exchange (issue 35, docs/decisions/032-1c-exchange.md): its sessions and the files 1C sends
// live in the database, so every PM2 worker and every host behind a balancer takes the next call of
// one exchange; its runs are the back office's log; each section and product it made keeps 1C's Ид;
// a lead remembers when 1C took it as an order.
import { sql, type Kysely } from 'kysely'
import { idColumn, isSqlite } from '../sql/dialect'

export async function up(db: Kysely<any>): Promise<void> {
  const blob = isSqlite(db) ? 'blob' : 'bytea'
  await db.schema
    .createTable('exchangeSession')
    // SHA-256 (hex) of the cookie 1C was given: the cookie itself is never stored
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('createdAt', 'varchar(40)', (c) => c.notNull())
    .addColumn('expiresAt', 'varchar(40)', (c) => c.notNull())
    // The run of the catalogue's import this session started, once it has one
    .addColumn('runId', 'integer')
    // JSON: where the import is (the file, the items applied, what the full sync saw)
    .addColumn('state', 'text')
    .execute()
  await db.schema
    .createTable('exchangeFile')
    .$call(idColumn(db))
    .addColumn('sessionId', 'varchar(64)', (c) => c.notNull())
    // As 1C names it, checked: `import.xml`, `import_files/ab/<guid>.jpg`
    .addColumn('name', 'varchar(500)', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('bytes', sql.raw(blob) as any, (c) => c.notNull())
    .execute()
  await db.schema.createIndex('exchange_file_name').on('exchangeFile').columns(['sessionId', 'name', 'seq']).execute()
  await db.schema
    .createTable('exchangeRun')
    .$call(idColumn(db))
    .addColumn('startedAt', 'varchar(40)', (c) => c.notNull())
    .addColumn('finishedAt', 'varchar(40)')
    // 'running' | 'success' | 'failure'
    .addColumn('status', 'varchar(20)', (c) => c.notNull())
    // JSON: the files imported, the counts, the rows skipped and why (a bounded list)
    .addColumn('report', 'text', (c) => c.notNull())
    .addColumn('message', 'varchar(2000)')
    .execute()
  await db.schema
    .createTable('exchangeRecord')
    // 'group' | 'product'
    .addColumn('kind', 'varchar(10)', (c) => c.notNull())
    // 1C's Ид
    .addColumn('externalId', 'varchar(200)', (c) => c.notNull())
    .addColumn('structureId', 'integer', (c) => c.notNull())
    // The run that last named it (a full sync withdraws what its run did not name)
    .addColumn('seenRun', 'integer', (c) => c.notNull())
    // 1 while withdrawn by a full sync: the next run that names it publishes it again
    .addColumn('withdrawn', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('exchange_record_pk', ['kind', 'externalId'])
    .execute()
  await db.schema.createIndex('exchange_record_structure').on('exchangeRecord').column('structureId').execute()
  await db.schema.createIndex('exchange_record_seen').on('exchangeRecord').columns(['kind', 'seenRun']).execute()

  await db.schema.alterTable('feedback').addColumn('exportedAt', 'varchar(40)').execute()
  await db.schema.createIndex('feedback_export').on('feedback').columns(['exportedAt', 'id']).execute()
}
