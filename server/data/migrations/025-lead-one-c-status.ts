// Forward-only: a released migration is never edited, a new file follows it.
// A lead's order as 1C last described it (issue 44): the status 1C sends back with `type=sale&mode=file`,
// shown in the inbox beside the owner's own status, which it never changes.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  // «отгружен 28.11.2026», «отменён», «Выполнен»: what the inbox shows after «1С:»
  await db.schema.alterTable('feedback').addColumn('oneCStatus', 'varchar(200)').execute()
  // ISO 8601 UTC: when 1C sent it
  await db.schema.alterTable('feedback').addColumn('oneCStatusAt', 'varchar(40)').execute()
}
