// Forward-only: a released migration is never edited, a new file follows it.
// The 1C exchange's files and staged items unlogged on PostgreSQL (issue 43, docs/decisions/032-1c-exchange.md,
// "Unlogged exchange files"): a session's parts (up to 256 MiB) and the items parsed from them live
// for one exchange and are dropped at its end, yet every byte of them went through the write-ahead
// log, and a lead committed meanwhile waited for that log to reach the disk before it (the slow
// leads of a 110,000-product exchange came while its 60 MB file was stored and staged). Unlogged,
// they are written once; after a crash PostgreSQL empties them, and 1C, whose exchange then
// fails, sends its files again. SQLite has no such log to spare: nothing changes there.
import { sql, type Kysely } from 'kysely'
import { isSqlite } from '../sql/dialect'

export async function up(db: Kysely<any>): Promise<void> {
  if (isSqlite(db)) return
  await sql`ALTER TABLE "exchangeFile" SET UNLOGGED`.execute(db)
  await sql`ALTER TABLE "exchangeStaged" SET UNLOGGED`.execute(db)
}
