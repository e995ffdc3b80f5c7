// Every table of the database, every row, as text: where a test looks for a person's data after
// it was deleted. Lists the tables from the database itself, so a table added later is searched too.
import { sql } from 'kysely'
import type { Db } from '../../server/data/db'
import { isSqlite } from '../../server/data/sql/dialect'

export async function everyTableAsText(db: Db): Promise<Map<string, string>> {
  const names = isSqlite(db)
    ? (
        await sql<{
          name: string
        }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(db)
      ).rows.map((row) => row.name)
    : (
        await sql<{
          name: string
        }>`select table_name as name from information_schema.tables where table_schema = current_schema()`.execute(db)
      ).rows.map((row) => row.name)
  const tables = new Map<string, string>()
  for (const name of names) {
    const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(name)}`.execute(db)
    tables.set(name, JSON.stringify(rows))
  }
  return tables
}
