// Migration 007 on a database that already holds leads: each one gets its search text, so the
// inbox finds leads stored before the back office existed (SQLite, and PostgreSQL when set).
import path from 'node:path'
import { Kysely, Migrator, SqliteDialect, type Migration } from 'kysely'
import { OwnSchemaPostgresDialect } from '../../server/data/own-schema-dialect'
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { openDatabase } from '../../server/data/db'
import { SQLite } from '../../server/data/sqlite-driver'
import * as m001 from '../../server/data/migrations/001-initial'
import * as m002 from '../../server/data/migrations/002-lead-intake'
import * as m003 from '../../server/data/migrations/003-content-version'
import * as m004 from '../../server/data/migrations/004-lead-source'
import * as m005 from '../../server/data/migrations/005-lead-delivery'
import * as m006 from '../../server/data/migrations/006-rate-limit'
import { tempDir } from '../helpers/build-test-app'
import { createTestSchema, TEST_DATABASE_URL, type TestSchema } from '../helpers/postgres'
import { removeDir } from './admin-helpers'

const BEFORE_007: Record<string, Migration> = {
  '001-initial': m001,
  '002-lead-intake': m002,
  '003-content-version': m003,
  '004-lead-source': m004,
  '005-lead-delivery': m005,
  '006-rate-limit': m006,
}

/** Brings a database to 006 and stores a lead there, as a site of the previous release did. */
async function databaseOfTheLastRelease(db: Kysely<any>, schema?: string): Promise<void> {
  // In PostgreSQL, the migration tables of this test's own schema, never another one's.
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => BEFORE_007 },
    migrationTableSchema: schema,
  })
  const { error } = await migrator.migrateToLatest()
  if (error) throw error instanceof Error ? error : new Error(String(error))
  await db
    .insertInto('feedback')
    .values({
      username: 'Ёлкина Анна',
      email: 'Anna@Example.RU',
      phone: '8 (912) 345-67-89',
      phoneE164: '+79123456789',
      createdAt: '2025-12-31T20:00:00.000Z',
    })
    .execute()
  await db.destroy()
}

const cleanups: Array<() => Promise<void> | void> = []
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup()
})

describe('migration 007', () => {
  it('gives leads stored before it their search text (SQLite)', async () => {
    const dir = tempDir('vitrina-migration-')
    cleanups.push(() => removeDir(dir))
    const file = path.join(dir, 'site.db')
    await databaseOfTheLastRelease(new Kysely({ dialect: new SqliteDialect({ database: new SQLite(file) }) }))
    const db = await openDatabase({ kind: 'sqlite', path: file, explicit: true })
    const row = await db.selectFrom('feedback').select('searchText').executeTakeFirstOrThrow()
    await db.destroy()
    expect(row.searchText).toBe('ёлкина анна\nanna@example.ru\n8 (912) 345-67-89\n89123456789\n79123456789')
  })

  it.runIf(TEST_DATABASE_URL)('does the same on PostgreSQL', async () => {
    const schema: TestSchema = await createTestSchema()
    cleanups.push(() => schema.drop())
    await databaseOfTheLastRelease(
      new Kysely({
        dialect: new OwnSchemaPostgresDialect({ pool: new pg.Pool({ connectionString: schema.url, max: 1 }) }),
      }),
      new URL(schema.url).searchParams.get('options')!.split('=').pop(),
    )
    const db = await openDatabase({ kind: 'postgres', url: schema.url, waitMs: 0 })
    const row = await db.selectFrom('feedback').select('searchText').executeTakeFirstOrThrow()
    await db.destroy()
    expect(row.searchText).toContain('ёлкина анна')
  })
})
